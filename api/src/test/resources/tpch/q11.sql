-- TPC-H Q11 (uncorrelated scalar subquery in HAVING). Adapted: ps_partkey added as a last ORDER BY key (FRACTION 0.0001).
-- Adapted: "value" quoted: it is a reserved word for our parser.
select ps_partkey, sum(ps_supplycost * ps_availqty) as "value"
from partsupp, supplier, nation
where ps_suppkey = s_suppkey and s_nationkey = n_nationkey and n_name = 'GERMANY'
group by ps_partkey
having sum(ps_supplycost * ps_availqty) > (
    select sum(ps_supplycost * ps_availqty) * 0.0001
    from partsupp, supplier, nation
    where ps_suppkey = s_suppkey and s_nationkey = n_nationkey and n_name = 'GERMANY')
order by "value" desc, ps_partkey
