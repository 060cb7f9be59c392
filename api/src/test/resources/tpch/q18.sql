-- TPC-H Q18 (uncorrelated IN over a grouped subquery). Adapted: the quantity parameter is 200
-- instead of 300, since the tiny data has few orders above 300; o_orderkey added as a last ORDER BY key.
select c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice, sum(l_quantity) as total_qty
from customer, orders, lineitem
where o_orderkey in (select l_orderkey from lineitem group by l_orderkey having sum(l_quantity) > 200)
    and c_custkey = o_custkey and o_orderkey = l_orderkey
group by c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice
order by o_totalprice desc, o_orderdate, o_orderkey
limit 100
