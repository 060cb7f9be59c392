-- TPC-H Q13. Adapted: the derived table's column list "as c_orders (c_custkey, c_count)" is written
-- as aliases inside it, which our dialect requires.
select c_count, count(*) as custdist
from (
    select c_custkey as c_custkey, count(o_orderkey) as c_count
    from customer left outer join orders on c_custkey = o_custkey and o_comment not like '%special%requests%'
    group by c_custkey
) as c_orders
group by c_count
order by custdist desc, c_count desc
