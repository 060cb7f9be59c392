package io.sluice.connect;

import static org.apache.spark.sql.functions.avg;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.countDistinct;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.substring;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;
import static org.apache.spark.sql.functions.year;

import io.sluice.tpch.Answers;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The 22 TPC-H queries as Spark DataFrame programs, written as a Spark user writes them against
 * {@code spark.table(...)}: joins on column equalities, {@code EXISTS} as left semi and {@code NOT
 * EXISTS}/{@code NOT IN} as left anti joins, scalar subqueries as aggregates joined back, interval
 * arithmetic on the validation parameters done by hand. Each answers what the specification's text
 * ({@code io.sluice.tpch.TpchQueries}) answers, with its columns in the same order.
 */
public final class TpchDataFrames {
    private TpchDataFrames() {
    }

    /** Query {@code number} (1 to 22) over the tables {@code spark.table("lineitem")}, ... */
    public static Dataset<Row> query(SparkSession spark, int number) {
        Tables t = new Tables(spark);
        return switch (number) {
            case 1 -> q1(t);
            case 2 -> q2(t);
            case 3 -> q3(t);
            case 4 -> q4(t);
            case 5 -> q5(t);
            case 6 -> q6(t);
            case 7 -> q7(t);
            case 8 -> q8(t);
            case 9 -> q9(t);
            case 10 -> q10(t);
            case 11 -> q11(t);
            case 12 -> q12(t);
            case 13 -> q13(t);
            case 14 -> q14(t);
            case 15 -> q15(t);
            case 16 -> q16(t);
            case 17 -> q17(t);
            case 18 -> q18(t);
            case 19 -> q19(t);
            case 20 -> q20(t);
            case 21 -> q21(t);
            case 22 -> q22(t);
            default -> throw new IllegalArgumentException("TPC-H has queries 1 to 22, not " + number);
        };
    }

    /** Rows the Spark client collected, in the form {@link Answers} gives every engine's answers. */
    public static List<List<Object>> normalized(List<Row> rows) {
        List<List<Object>> out = new ArrayList<>(rows.size());
        for (Row r : rows) {
            List<Object> row = new ArrayList<>(r.length());
            for (int i = 0; i < r.length(); i++) {
                row.add(r.get(i));
            }
            out.add(row);
        }
        return Answers.normalize(out);
    }

    private record Tables(SparkSession spark) {
        Dataset<Row> lineitem() {
            return spark.table("lineitem");
        }

        Dataset<Row> orders() {
            return spark.table("orders");
        }

        Dataset<Row> customer() {
            return spark.table("customer");
        }

        Dataset<Row> part() {
            return spark.table("part");
        }

        Dataset<Row> partsupp() {
            return spark.table("partsupp");
        }

        Dataset<Row> supplier() {
            return spark.table("supplier");
        }

        Dataset<Row> nation() {
            return spark.table("nation");
        }

        Dataset<Row> region() {
            return spark.table("region");
        }
    }

    private static Column date(String text) {
        return lit(LocalDate.parse(text));
    }

    private static Column between(String column, String from, String until) {
        return col(column).geq(date(from)).and(col(column).lt(date(until)));
    }

    /** l_extendedprice * (1 - l_discount) */
    private static Column discounted() {
        return col("l_extendedprice").multiply(lit(1).minus(col("l_discount")));
    }

    private static Dataset<Row> q1(Tables t) {
        return t.lineitem()
                .filter(col("l_shipdate").leq(date("1998-09-02")))
                .groupBy(col("l_returnflag"), col("l_linestatus"))
                .agg(sum("l_quantity").as("sum_qty"),
                        sum("l_extendedprice").as("sum_base_price"),
                        sum(discounted()).as("sum_disc_price"),
                        sum(discounted().multiply(lit(1).plus(col("l_tax")))).as("sum_charge"),
                        avg("l_quantity").as("avg_qty"),
                        avg("l_extendedprice").as("avg_price"),
                        avg("l_discount").as("avg_disc"),
                        count("*").as("count_order"))
                .orderBy("l_returnflag", "l_linestatus");
    }

    private static Dataset<Row> q2(Tables t) {
        Dataset<Row> europe = t.region().filter(col("r_name").equalTo("EUROPE"))
                .join(t.nation(), col("r_regionkey").equalTo(col("n_regionkey")))
                .join(t.supplier(), col("n_nationkey").equalTo(col("s_nationkey")))
                .join(t.partsupp(), col("s_suppkey").equalTo(col("ps_suppkey")));
        Dataset<Row> brass = t.part().filter(col("p_size").equalTo(15).and(col("p_type").endsWith("BRASS")))
                .join(europe, col("p_partkey").equalTo(col("ps_partkey")));
        Dataset<Row> cheapest = europe.groupBy(col("ps_partkey")).agg(min("ps_supplycost").as("min_cost"));
        return brass.join(cheapest, brass.col("ps_partkey").equalTo(cheapest.col("ps_partkey"))
                        .and(col("ps_supplycost").equalTo(col("min_cost"))))
                .select("s_acctbal", "s_name", "n_name", "p_partkey", "p_mfgr", "s_address", "s_phone", "s_comment")
                .orderBy(col("s_acctbal").desc(), col("n_name"), col("s_name"), col("p_partkey"))
                .limit(100);
    }

    private static Dataset<Row> q3(Tables t) {
        return t.customer().filter(col("c_mktsegment").equalTo("BUILDING"))
                .join(t.orders().filter(col("o_orderdate").lt(date("1995-03-15"))), col("c_custkey").equalTo(col("o_custkey")))
                .join(t.lineitem().filter(col("l_shipdate").gt(date("1995-03-15"))), col("l_orderkey").equalTo(col("o_orderkey")))
                .groupBy("l_orderkey", "o_orderdate", "o_shippriority")
                .agg(sum(discounted()).as("revenue"))
                .select("l_orderkey", "revenue", "o_orderdate", "o_shippriority")
                .orderBy(col("revenue").desc(), col("o_orderdate"))
                .limit(10);
    }

    private static Dataset<Row> q4(Tables t) {
        Dataset<Row> late = t.lineitem().filter(col("l_commitdate").lt(col("l_receiptdate")));
        return t.orders().filter(between("o_orderdate", "1993-07-01", "1993-10-01"))
                .join(late, col("o_orderkey").equalTo(col("l_orderkey")), "left_semi")
                .groupBy("o_orderpriority")
                .agg(count("*").as("order_count"))
                .orderBy("o_orderpriority");
    }

    private static Dataset<Row> q5(Tables t) {
        return t.region().filter(col("r_name").equalTo("ASIA"))
                .join(t.nation(), col("r_regionkey").equalTo(col("n_regionkey")))
                .join(t.customer(), col("n_nationkey").equalTo(col("c_nationkey")))
                .join(t.orders().filter(between("o_orderdate", "1994-01-01", "1995-01-01")),
                        col("c_custkey").equalTo(col("o_custkey")))
                .join(t.lineitem(), col("l_orderkey").equalTo(col("o_orderkey")))
                .join(t.supplier(), col("l_suppkey").equalTo(col("s_suppkey")).and(col("c_nationkey").equalTo(col("s_nationkey"))))
                .groupBy("n_name")
                .agg(sum(discounted()).as("revenue"))
                .orderBy(col("revenue").desc());
    }

    private static Dataset<Row> q6(Tables t) {
        return t.lineitem()
                .filter(between("l_shipdate", "1994-01-01", "1995-01-01")
                        .and(col("l_discount").between(0.05, 0.07))
                        .and(col("l_quantity").lt(24)))
                .agg(sum(col("l_extendedprice").multiply(col("l_discount"))).as("revenue"));
    }

    private static Dataset<Row> q7(Tables t) {
        Dataset<Row> suppliers = t.nation().select(col("n_nationkey").as("supp_nationkey"), col("n_name").as("supp_nation"));
        Dataset<Row> customers = t.nation().select(col("n_nationkey").as("cust_nationkey"), col("n_name").as("cust_nation"));
        return t.supplier()
                .join(t.lineitem().filter(col("l_shipdate").between(date("1995-01-01"), date("1996-12-31"))),
                        col("s_suppkey").equalTo(col("l_suppkey")))
                .join(t.orders(), col("o_orderkey").equalTo(col("l_orderkey")))
                .join(t.customer(), col("c_custkey").equalTo(col("o_custkey")))
                .join(suppliers, col("s_nationkey").equalTo(col("supp_nationkey")))
                .join(customers, col("c_nationkey").equalTo(col("cust_nationkey")))
                .filter(col("supp_nation").equalTo("FRANCE").and(col("cust_nation").equalTo("GERMANY"))
                        .or(col("supp_nation").equalTo("GERMANY").and(col("cust_nation").equalTo("FRANCE"))))
                .select(col("supp_nation"), col("cust_nation"), year(col("l_shipdate")).as("l_year"), discounted().as("volume"))
                .groupBy("supp_nation", "cust_nation", "l_year")
                .agg(sum("volume").as("revenue"))
                .orderBy("supp_nation", "cust_nation", "l_year");
    }

    private static Dataset<Row> q8(Tables t) {
        Dataset<Row> customerNations = t.nation().select(col("n_nationkey").as("c_nation"), col("n_regionkey"));
        Dataset<Row> supplierNations = t.nation().select(col("n_nationkey").as("s_nation"), col("n_name").as("nation"));
        return t.region().filter(col("r_name").equalTo("AMERICA"))
                .join(customerNations, col("r_regionkey").equalTo(col("n_regionkey")))
                .join(t.customer(), col("c_nation").equalTo(col("c_nationkey")))
                .join(t.orders().filter(col("o_orderdate").between(date("1995-01-01"), date("1996-12-31"))),
                        col("c_custkey").equalTo(col("o_custkey")))
                .join(t.lineitem(), col("l_orderkey").equalTo(col("o_orderkey")))
                .join(t.part().filter(col("p_type").equalTo("ECONOMY ANODIZED STEEL")), col("p_partkey").equalTo(col("l_partkey")))
                .join(t.supplier(), col("s_suppkey").equalTo(col("l_suppkey")))
                .join(supplierNations, col("s_nationkey").equalTo(col("s_nation")))
                .select(year(col("o_orderdate")).as("o_year"), discounted().as("volume"), col("nation"))
                .groupBy("o_year")
                .agg(sum(when(col("nation").equalTo("BRAZIL"), col("volume")).otherwise(0)).divide(sum("volume")).as("mkt_share"))
                .orderBy("o_year");
    }

    private static Dataset<Row> q9(Tables t) {
        return t.part().filter(col("p_name").contains("green"))
                .join(t.lineitem(), col("p_partkey").equalTo(col("l_partkey")))
                .join(t.supplier(), col("s_suppkey").equalTo(col("l_suppkey")))
                .join(t.partsupp(), col("ps_suppkey").equalTo(col("l_suppkey")).and(col("ps_partkey").equalTo(col("l_partkey"))))
                .join(t.orders(), col("o_orderkey").equalTo(col("l_orderkey")))
                .join(t.nation(), col("s_nationkey").equalTo(col("n_nationkey")))
                .select(col("n_name").as("nation"), year(col("o_orderdate")).as("o_year"),
                        discounted().minus(col("ps_supplycost").multiply(col("l_quantity"))).as("amount"))
                .groupBy("nation", "o_year")
                .agg(sum("amount").as("sum_profit"))
                .orderBy(col("nation"), col("o_year").desc());
    }

    private static Dataset<Row> q10(Tables t) {
        return t.customer()
                .join(t.orders().filter(between("o_orderdate", "1993-10-01", "1994-01-01")), col("c_custkey").equalTo(col("o_custkey")))
                .join(t.lineitem().filter(col("l_returnflag").equalTo("R")), col("l_orderkey").equalTo(col("o_orderkey")))
                .join(t.nation(), col("c_nationkey").equalTo(col("n_nationkey")))
                .groupBy("c_custkey", "c_name", "c_acctbal", "c_phone", "n_name", "c_address", "c_comment")
                .agg(sum(discounted()).as("revenue"))
                .select("c_custkey", "c_name", "revenue", "c_acctbal", "n_name", "c_address", "c_phone", "c_comment")
                .orderBy(col("revenue").desc())
                .limit(20);
    }

    private static Dataset<Row> q11(Tables t) {
        Dataset<Row> german = t.partsupp()
                .join(t.supplier(), col("ps_suppkey").equalTo(col("s_suppkey")))
                .join(t.nation().filter(col("n_name").equalTo("GERMANY")), col("s_nationkey").equalTo(col("n_nationkey")))
                .select(col("ps_partkey"), col("ps_supplycost").multiply(col("ps_availqty")).as("value"));
        Dataset<Row> threshold = german.agg(sum("value").multiply(0.0001).as("threshold"));
        return german.groupBy("ps_partkey").agg(sum("value").as("value"))
                .crossJoin(threshold)
                .filter(col("value").gt(col("threshold")))
                .select("ps_partkey", "value")
                .orderBy(col("value").desc());
    }

    private static Dataset<Row> q12(Tables t) {
        Column high = col("o_orderpriority").isin("1-URGENT", "2-HIGH");
        return t.orders()
                .join(t.lineitem().filter(col("l_shipmode").isin("MAIL", "SHIP")
                                .and(col("l_commitdate").lt(col("l_receiptdate")))
                                .and(col("l_shipdate").lt(col("l_commitdate")))
                                .and(between("l_receiptdate", "1994-01-01", "1995-01-01"))),
                        col("o_orderkey").equalTo(col("l_orderkey")))
                .groupBy("l_shipmode")
                .agg(sum(when(high, 1).otherwise(0)).as("high_line_count"),
                        sum(when(not(high), 1).otherwise(0)).as("low_line_count"))
                .orderBy("l_shipmode");
    }

    private static Dataset<Row> q13(Tables t) {
        return t.customer()
                .join(t.orders().filter(not(col("o_comment").like("%special%requests%"))),
                        col("c_custkey").equalTo(col("o_custkey")), "left_outer")
                .groupBy("c_custkey")
                .agg(count("o_orderkey").as("c_count"))
                .groupBy("c_count")
                .agg(count("*").as("custdist"))
                .orderBy(col("custdist").desc(), col("c_count").desc());
    }

    private static Dataset<Row> q14(Tables t) {
        return t.lineitem().filter(between("l_shipdate", "1995-09-01", "1995-10-01"))
                .join(t.part(), col("l_partkey").equalTo(col("p_partkey")))
                .agg(sum(when(col("p_type").startsWith("PROMO"), discounted()).otherwise(0)).multiply(100.00)
                        .divide(sum(discounted())).as("promo_revenue"));
    }

    private static Dataset<Row> q15(Tables t) {
        Dataset<Row> revenue = t.lineitem().filter(between("l_shipdate", "1996-01-01", "1996-04-01"))
                .groupBy(col("l_suppkey").as("supplier_no"))
                .agg(sum(discounted()).as("total_revenue"));
        Dataset<Row> top = revenue.agg(max("total_revenue").as("max_revenue"));
        return t.supplier()
                .join(revenue, col("s_suppkey").equalTo(col("supplier_no")))
                .join(top, col("total_revenue").equalTo(col("max_revenue")))
                .select("s_suppkey", "s_name", "s_address", "s_phone", "total_revenue")
                .orderBy("s_suppkey");
    }

    private static Dataset<Row> q16(Tables t) {
        Dataset<Row> complained = t.supplier().filter(col("s_comment").like("%Customer%Complaints%")).select("s_suppkey");
        return t.part()
                .filter(col("p_brand").notEqual("Brand#45")
                        .and(not(col("p_type").startsWith("MEDIUM POLISHED")))
                        .and(col("p_size").isin(49, 14, 23, 45, 19, 3, 36, 9)))
                .join(t.partsupp(), col("p_partkey").equalTo(col("ps_partkey")))
                .join(complained, col("ps_suppkey").equalTo(col("s_suppkey")), "left_anti")
                .groupBy("p_brand", "p_type", "p_size")
                .agg(countDistinct("ps_suppkey").as("supplier_cnt"))
                .orderBy(col("supplier_cnt").desc(), col("p_brand"), col("p_type"), col("p_size"));
    }

    private static Dataset<Row> q17(Tables t) {
        Dataset<Row> small = t.lineitem().groupBy(col("l_partkey").as("avg_partkey"))
                .agg(avg("l_quantity").multiply(0.2).as("small_quantity"));
        return t.lineitem()
                .join(t.part().filter(col("p_brand").equalTo("Brand#23").and(col("p_container").equalTo("MED BOX"))),
                        col("l_partkey").equalTo(col("p_partkey")))
                .join(small, col("p_partkey").equalTo(col("avg_partkey")))
                .filter(col("l_quantity").lt(col("small_quantity")))
                .agg(sum("l_extendedprice").divide(7.0).as("avg_yearly"));
    }

    private static Dataset<Row> q18(Tables t) {
        Dataset<Row> large = t.lineitem().groupBy(col("l_orderkey").as("large_orderkey"))
                .agg(sum("l_quantity").as("quantity"))
                .filter(col("quantity").gt(300));
        return t.orders()
                .join(large, col("o_orderkey").equalTo(col("large_orderkey")), "left_semi")
                .join(t.customer(), col("c_custkey").equalTo(col("o_custkey")))
                .join(t.lineitem(), col("o_orderkey").equalTo(col("l_orderkey")))
                .groupBy("c_name", "c_custkey", "o_orderkey", "o_orderdate", "o_totalprice")
                .agg(sum("l_quantity"))
                .orderBy(col("o_totalprice").desc(), col("o_orderdate"))
                .limit(100);
    }

    private static Dataset<Row> q19(Tables t) {
        return t.lineitem()
                .filter(col("l_shipmode").isin("AIR", "AIR REG").and(col("l_shipinstruct").equalTo("DELIVER IN PERSON")))
                .join(t.part(), col("l_partkey").equalTo(col("p_partkey")))
                .filter(brand("Brand#12", new String[] {"SM CASE", "SM BOX", "SM PACK", "SM PKG"}, 1, 5)
                        .or(brand("Brand#23", new String[] {"MED BAG", "MED BOX", "MED PKG", "MED PACK"}, 10, 10))
                        .or(brand("Brand#34", new String[] {"LG CASE", "LG BOX", "LG PACK", "LG PKG"}, 20, 15)))
                .agg(sum(discounted()).as("revenue"));
    }

    /** One branch of Q19's condition: a brand in some containers, a quantity range, a size range. */
    private static Column brand(String brand, String[] containers, int quantity, int maxSize) {
        return col("p_brand").equalTo(brand)
                .and(col("p_container").isin((Object[]) containers))
                .and(col("l_quantity").between(quantity, quantity + 10))
                .and(col("p_size").between(1, maxSize));
    }

    private static Dataset<Row> q20(Tables t) {
        Dataset<Row> forest = t.part().filter(col("p_name").startsWith("forest"));
        Dataset<Row> shipped = t.lineitem().filter(between("l_shipdate", "1994-01-01", "1995-01-01"))
                .groupBy("l_partkey", "l_suppkey")
                .agg(sum("l_quantity").multiply(0.5).as("half_quantity"));
        Dataset<Row> offered = t.partsupp()
                .join(forest, col("ps_partkey").equalTo(col("p_partkey")), "left_semi")
                .join(shipped, col("ps_partkey").equalTo(col("l_partkey")).and(col("ps_suppkey").equalTo(col("l_suppkey"))))
                .filter(col("ps_availqty").gt(col("half_quantity")))
                .select("ps_suppkey");
        return t.supplier()
                .join(offered, col("s_suppkey").equalTo(col("ps_suppkey")), "left_semi")
                .join(t.nation().filter(col("n_name").equalTo("CANADA")), col("s_nationkey").equalTo(col("n_nationkey")))
                .select("s_name", "s_address")
                .orderBy("s_name");
    }

    private static Dataset<Row> q21(Tables t) {
        Dataset<Row> l1 = t.lineitem().as("l1");
        Dataset<Row> l2 = t.lineitem().as("l2");
        Dataset<Row> l3 = t.lineitem().filter(col("l_receiptdate").gt(col("l_commitdate"))).as("l3");
        return t.supplier()
                .join(l1.filter(col("l1.l_receiptdate").gt(col("l1.l_commitdate"))), col("s_suppkey").equalTo(col("l1.l_suppkey")))
                .join(t.orders().filter(col("o_orderstatus").equalTo("F")), col("o_orderkey").equalTo(col("l1.l_orderkey")))
                .join(t.nation().filter(col("n_name").equalTo("SAUDI ARABIA")), col("s_nationkey").equalTo(col("n_nationkey")))
                .join(l2, col("l2.l_orderkey").equalTo(col("l1.l_orderkey")).and(col("l2.l_suppkey").notEqual(col("l1.l_suppkey"))),
                        "left_semi")
                .join(l3, col("l3.l_orderkey").equalTo(col("l1.l_orderkey")).and(col("l3.l_suppkey").notEqual(col("l1.l_suppkey"))),
                        "left_anti")
                .groupBy("s_name")
                .agg(count("*").as("numwait"))
                .orderBy(col("numwait").desc(), col("s_name"))
                .limit(100);
    }

    private static Dataset<Row> q22(Tables t) {
        Dataset<Row> candidates = t.customer()
                .select(substring(col("c_phone"), 1, 2).as("cntrycode"), col("c_acctbal"), col("c_custkey"))
                .filter(col("cntrycode").isin("13", "31", "23", "29", "30", "18", "17"));
        Dataset<Row> average = candidates.filter(col("c_acctbal").gt(0.00)).agg(avg("c_acctbal").as("avg_acctbal"));
        return candidates
                .join(t.orders(), col("o_custkey").equalTo(col("c_custkey")), "left_anti")
                .crossJoin(average)
                .filter(col("c_acctbal").gt(col("avg_acctbal")))
                .groupBy("cntrycode")
                .agg(count("*").as("numcust"), sum("c_acctbal").as("totacctbal"))
                .orderBy("cntrycode");
    }
}
