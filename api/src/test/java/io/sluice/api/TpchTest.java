package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.datasource.StatisticsEstimator;
import io.sluice.testfixtures.DuckDbOracle;
import io.sluice.operators.expr.EvaluatingConstantFolder;
import io.sluice.tpch.TpchQueries;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The 22 TPC-H queries in the specification's text ({@link TpchQueries#text}) on tiny
 * TPC-H tables: all eight, with the spec's column names and types, a few dozen rows each (lineitem
 * a few hundred), generated deterministically by DuckDB from {@code range()} with values chosen so
 * that most queries' constants (regions, nations, brands, types, dates) find rows. Each result is
 * compared with DuckDB's on the same Parquet files: in order when the query ends in a complete
 * ORDER BY, else as a multiset.
 */
class TpchTest {
    @TempDir
    static Path data;

    private static Session session;
    private static DuckDbOracle duck;

    /** The tables, as DuckDB SQL over range(); lineitem and orders derive from the {@code gen_order} base. */
    static final String[][] TABLES = {
        {"region", "SELECT i AS r_regionkey, "
                + "['AFRICA', 'AMERICA', 'ASIA', 'EUROPE', 'MIDDLE EAST'][i + 1] AS r_name, "
                + "'region comment ' || i AS r_comment FROM range(0, 5) r(i)"},
        {"nation", "SELECT i AS n_nationkey, "
                + "['ALGERIA', 'ARGENTINA', 'BRAZIL', 'CANADA', 'EGYPT', 'ETHIOPIA', 'FRANCE', 'GERMANY', 'INDIA', "
                + "'INDONESIA', 'IRAN', 'IRAQ', 'JAPAN', 'JORDAN', 'KENYA', 'MOROCCO', 'MOZAMBIQUE', 'PERU', 'CHINA', "
                + "'ROMANIA', 'SAUDI ARABIA', 'VIETNAM', 'RUSSIA', 'UNITED KINGDOM', 'UNITED STATES'][i + 1] AS n_name, "
                + "[0, 1, 1, 1, 4, 0, 3, 3, 2, 2, 4, 4, 2, 4, 0, 0, 0, 1, 2, 3, 4, 2, 3, 3, 1][i + 1] AS n_regionkey, "
                + "'nation comment ' || i AS n_comment FROM range(0, 25) r(i)"},
        {"supplier", "SELECT i AS s_suppkey, 'Supplier#' || lpad(CAST(i AS VARCHAR), 9, '0') AS s_name, "
                + "'addr s' || i AS s_address, CAST((i * 7) % 25 AS INTEGER) AS s_nationkey, "
                + "CAST(10 + (i * 7) % 25 AS VARCHAR) || '-555-' || lpad(CAST(i * 37 % 1000 AS VARCHAR), 4, '0') AS s_phone, "
                + "CAST((i * 611 % 11000) - 1000 + 0.25 * i AS DECIMAL(15,2)) AS s_acctbal, "
                + "CASE WHEN i % 6 = 5 THEN 'sly Customer even Complaints' ELSE 'supplier comment ' || i END AS s_comment "
                + "FROM range(1, 21) r(i)"},
        {"part", "SELECT i AS p_partkey, "
                + "CASE WHEN i % 5 = 0 THEN 'forest ' ELSE '' END || ['green', 'blue', 'red', 'misty', 'linen'][i % 5 + 1] "
                + "|| ' ' || ['almond', 'green', 'khaki', 'navy'][i % 4 + 1] AS p_name, "
                + "'Manufacturer#' || (1 + i % 5) AS p_mfgr, 'Brand#' || (1 + i % 5) || (1 + (i // 5) % 5) AS p_brand, "
                + "['STANDARD', 'SMALL', 'MEDIUM', 'LARGE', 'ECONOMY', 'PROMO'][i % 6 + 1] || ' ' "
                + "|| ['ANODIZED', 'BURNISHED', 'PLATED', 'POLISHED', 'BRUSHED'][(i // 2) % 5 + 1] || ' ' "
                + "|| ['TIN', 'NICKEL', 'BRASS', 'STEEL', 'COPPER'][(i // 3) % 5 + 1] AS p_type, "
                + "CAST([15, 49, 14, 23, 45, 19, 3, 36, 9, 7, 5, 2][i % 12 + 1] AS INTEGER) AS p_size, "
                + "['SM CASE', 'SM BOX', 'MED BOX', 'MED PKG', 'LG CASE', 'LG BOX', 'JUMBO PKG', 'WRAP CASE'][(i + 7) % 8 + 1] "
                + "AS p_container, CAST(900 + i + 0.01 * i AS DECIMAL(15,2)) AS p_retailprice, "
                + "'part comment ' || i AS p_comment FROM range(1, 41) r(i)"},
        {"partsupp", "SELECT p AS ps_partkey, CAST((p + j * (5 + (p - 1) // 20)) % 20 + 1 AS BIGINT) AS ps_suppkey, "
                + "CAST((p * 131 + j * 71) % 9999 + 1 AS INTEGER) AS ps_availqty, "
                + "CAST(((p * 37 + j * 53) % 1000) / 10.0 + 1 AS DECIMAL(15,2)) AS ps_supplycost, "
                + "'partsupp comment' AS ps_comment FROM range(1, 41) a(p), range(0, 4) b(j)"},
        {"customer", "SELECT i AS c_custkey, 'Customer#' || lpad(CAST(i AS VARCHAR), 9, '0') AS c_name, "
                + "'addr c' || i AS c_address, CAST((i * 11) % 25 AS INTEGER) AS c_nationkey, "
                + "CAST(10 + (i * 11) % 25 AS VARCHAR) || '-444-' || lpad(CAST(i * 53 % 1000 AS VARCHAR), 4, '0') AS c_phone, "
                + "CAST((i * 733 % 11000) - 1000 + 0.5 * i AS DECIMAL(15,2)) AS c_acctbal, "
                + "['AUTOMOBILE', 'BUILDING', 'FURNITURE', 'MACHINERY', 'HOUSEHOLD'][i % 5 + 1] AS c_mktsegment, "
                + "'customer comment ' || i AS c_comment FROM range(1, 31) r(i)"},
    };

    /** Orders (before their status and total) and line items, from which the orders table is finished. */
    static final String ORDER_BASE = "SELECT o AS o_orderkey, CAST([1, 2, 4, 5, 7, 8, 10, 11, 13, 14][o % 10 + 1] + (o // 10) % 3 * 15 AS BIGINT) AS o_custkey, "
            + "DATE '1992-01-01' + CAST((o * 233) % 2400 AS INTEGER) AS o_orderdate, "
            + "['1-URGENT', '2-HIGH', '3-MEDIUM', '4-NOT SPECIFIED', '5-LOW'][o % 5 + 1] AS o_orderpriority, "
            + "'Clerk#' || lpad(CAST(o % 7 AS VARCHAR), 9, '0') AS o_clerk, CAST(0 AS INTEGER) AS o_shippriority, "
            + "CASE WHEN o % 9 = 4 THEN 'pending special requests here' ELSE 'order comment ' || o END AS o_comment "
            + "FROM range(1, 121) r(o)";
    static final String LINEITEM = "SELECT o_orderkey AS l_orderkey, p AS l_partkey, "
            + "CAST((p + (n % 4) * (5 + (p - 1) // 20)) % 20 + 1 AS BIGINT) AS l_suppkey, CAST(n AS INTEGER) AS l_linenumber, "
            + "CAST(1 + (o_orderkey * 3 + n * 11) % 50 AS DECIMAL(15,2)) AS l_quantity, "
            + "CAST((1 + (o_orderkey * 3 + n * 11) % 50) * (900 + p + 0.01 * p) AS DECIMAL(15,2)) AS l_extendedprice, "
            + "CAST(((o_orderkey + n) % 11) / 100.0 AS DECIMAL(15,2)) AS l_discount, "
            + "CAST(((o_orderkey * n) % 9) / 100.0 AS DECIMAL(15,2)) AS l_tax, "
            + "CASE WHEN rd <= DATE '1995-06-17' THEN CASE WHEN (o_orderkey + n) % 2 = 0 THEN 'R' ELSE 'A' END ELSE 'N' END AS l_returnflag, "
            + "CASE WHEN sd > DATE '1995-06-17' THEN 'O' ELSE 'F' END AS l_linestatus, "
            + "sd AS l_shipdate, cd AS l_commitdate, rd AS l_receiptdate, "
            + "['DELIVER IN PERSON', 'COLLECT COD', 'NONE', 'TAKE BACK RETURN'][(o_orderkey + n) % 4 + 1] AS l_shipinstruct, "
            + "['REG AIR', 'AIR', 'RAIL', 'SHIP', 'TRUCK', 'MAIL', 'FOB'][(o_orderkey * 2 + n) % 7 + 1] AS l_shipmode, "
            + "'lineitem comment' AS l_comment "
            + "FROM (SELECT *, CAST((o_orderkey * 7 + n * 13) % 40 + 1 AS BIGINT) AS p, "
            + "o_orderdate + CAST(1 + (o_orderkey * n) % 120 AS INTEGER) AS sd, "
            + "o_orderdate + CAST(30 + (o_orderkey + n) % 60 AS INTEGER) AS cd, "
            + "o_orderdate + CAST(1 + (o_orderkey * n) % 120 + 1 + (o_orderkey + n * 3) % 30 AS INTEGER) AS rd "
            + "FROM gen_order, range(1, 8) r(n) WHERE n <= 1 + o_orderkey % 7)";
    static final String ORDERS = "SELECT o.o_orderkey, o.o_custkey, "
            + "CASE WHEN bool_and(l_linestatus = 'F') THEN 'F' WHEN bool_and(l_linestatus = 'O') THEN 'O' ELSE 'P' END AS o_orderstatus, "
            + "CAST(sum(l_extendedprice * (1 + l_tax) * (1 - l_discount)) AS DECIMAL(15,2)) AS o_totalprice, "
            + "o.o_orderdate, o.o_orderpriority, o.o_clerk, o.o_shippriority, o.o_comment "
            + "FROM gen_order o JOIN gen_lineitem ON l_orderkey = o.o_orderkey "
            + "GROUP BY ALL";

    @BeforeAll
    static void start() throws Exception {
        duck = new DuckDbOracle();
        duck.execute("CREATE TABLE gen_order AS " + ORDER_BASE);
        duck.execute("CREATE TABLE gen_lineitem AS " + LINEITEM);
        StringBuilder ddl = new StringBuilder();
        for (String[] t : TABLES) {
            ddl.append(write(t[0], t[1]));
        }
        ddl.append(write("lineitem", "SELECT * FROM gen_lineitem"));
        ddl.append(write("orders", ORDERS));
        session = Session.local(LocalCluster.Options.of(2).withShufflePartitions(3).withHttpPort(0));
        session.sql(ddl.toString());
    }

    /** Writes {@code name}.parquet, makes a DuckDB view of it, and returns our CREATE statement. */
    private static String write(String name, String query) throws Exception {
        Path file = data.resolve(name + ".parquet");
        duck.execute("COPY (" + query + ") TO '" + file + "' (FORMAT PARQUET)");
        duck.execute("CREATE VIEW " + name + " AS SELECT * FROM read_parquet('" + file + "')");
        return "CREATE EXTERNAL TABLE " + name + " STORED AS PARQUET LOCATION '" + file + "';";
    }

    @AfterAll
    static void stop() throws Exception {
        ClusterTesting.closeAll(scaled, session, duck);
    }

    /**
     * Joins whose estimate may be more than {@link #ESTIMATE_LIMIT} times off, by query and the join's
     * keys, each for a reason docs/estimates.md gives: a HAVING on a sum, which no column statistic
     * describes (Q18: the semi join, and the joins above it, since it filters orders before they meet
     * customers and lineitems); brand and container equalities where at this scale no part has both (Q17); a
     * LIKE prefix that keeps 1% of the parts where a tenth is assumed (Q20); in Q21, an anti join,
     * assumed to keep at least a tenth of its rows, where NOT EXISTS keeps 2%, and the orders join
     * above a nation filter on unique names, which writers store without a dictionary, so the filter
     * keeps a default tenth where one nation of 25 passes (11x at this scale, 2.6x at scale 1).
     */
    private static final java.util.Map<String, List<String>> ESTIMATE_EXCEPTIONS = java.util.Map.of(
            "q17", List.of("type=left, on=[(part.p_partkey, __sq1.l_partkey)]",
                    "type=inner, on=[(lineitem.l_partkey, part.p_partkey)]"),
            "q18", List.of("type=left_semi, on=[(orders.o_orderkey, __sq1.l_orderkey)]",
                    "type=inner, on=[(customer.c_custkey, orders.o_custkey)]",
                    "type=inner, on=[(orders.o_orderkey, lineitem.l_orderkey)]",
                    "type=inner, on=[(lineitem.l_orderkey, orders.o_orderkey)]"),
            "q20", List.of("type=left_semi, on=[(ps_partkey, __sq1.p_partkey)]",
                    "type=left, on=[(ps_partkey, __sq1.l_partkey), (ps_suppkey, __sq1.l_suppkey)]"),
            "q21", List.of("type=left_anti, on=[(l1.l_orderkey, __sq1.l_orderkey)]",
                    "type=inner, on=[(orders.o_orderkey, l1.l_orderkey)]"));
    private static final double ESTIMATE_LIMIT = 10;

    /** TPC-H at scale 0.01 from the generator, in a catalog of its own on this test's cluster (made on first use). */
    private static Session scaled;

    private static synchronized Session scaled() throws Exception {
        if (scaled == null) {
            io.sluice.tpch.TpchData generated = io.sluice.tpch.TpchData.generate(data.resolve("generated"), 0.01);
            Session s = Session.connect("127.0.0.1", session.localCluster().coordinator().httpPort(),
                    session.localCluster().authSecret());
            StringBuilder ddl = new StringBuilder();
            generated.tables().forEach((name, dir) -> ddl.append("CREATE EXTERNAL TABLE ").append(name)
                    .append(" STORED AS PARQUET LOCATION '").append(dir.toAbsolutePath()).append("';\n"));
            s.sql(ddl.toString());
            scaled = s;
        }
        return scaled;
    }

    /**
     * Every join's estimated rows (Parquet footer statistics only) are within 10x of the rows it
     * output at scale 0.01, as EXPLAIN ANALYZE prints them, except the listed exceptions.
     */
    @ParameterizedTest
    @ValueSource(strings = {"q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8", "q9", "q10", "q11", "q12", "q13", "q14",
        "q15", "q16", "q17", "q18", "q19", "q20", "q21", "q22"})
    void joinEstimatesWithinTenfoldOfActualRows(String name) throws Exception {
        String text = String.join("\n", scaled().sql("EXPLAIN ANALYZE " + query(name)).collect().rows().stream()
                .map(r -> (String) r.get(0)).toList());
        List<io.sluice.tpch.JoinEstimates.Join> joins = io.sluice.tpch.JoinEstimates.parse(text);
        assertThat(text).as("a plan with joins prints them").satisfiesAnyOf(
                t -> assertThat(joins).isNotEmpty(), t -> assertThat(t).doesNotContain("JoinExec"));
        for (io.sluice.tpch.JoinEstimates.Join join : joins) {
            if (ESTIMATE_EXCEPTIONS.getOrDefault(name, List.of()).stream().anyMatch(join.operator()::contains)) {
                continue;
            }
            assertThat(join.error()).as(name + ": " + join.operator() + " estimated " + join.estimated() + ", output "
                    + join.actual() + "\n" + text).isLessThanOrEqualTo(ESTIMATE_LIMIT);
        }
    }

    @AfterEach
    void noLeakedBuffers() {
        ClusterTesting.assertNoLeakedBuffers(session);
    }

    /** The specification's text of query {@code qN}. */
    static String query(String name) {
        return TpchQueries.text(Integer.parseInt(name.substring(1)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8", "q9", "q10", "q11", "q12", "q13", "q14",
        "q15", "q16", "q17", "q18", "q19", "q20", "q21", "q22"})
    void sameResultsAsDuckDb(String name) throws Exception {
        String sql = query(name);
        List<List<Object>> expected = duck.query(TpchQueries.forPeer(sql));
        List<List<Object>> actual = DuckDbOracle.normalize(session.sql(sql).collect());
        System.out.println(name + ": " + expected.size() + " rows");
        if (sql.toLowerCase(Locale.ROOT).contains("order by")) {
            assertThat(actual).as(name).isEqualTo(expected);
        } else {
            assertThat(DuckDbOracle.sorted(actual)).as(name).isEqualTo(DuckDbOracle.sorted(expected));
        }
    }

    /** Q19 repeats its join key in each branch of an OR; EXPLAIN shows it factored into an equijoin. */
    @org.junit.jupiter.api.Test
    void q19JoinKeyFromEveryOrBranchBecomesAnEquijoin() throws Exception {
        String explain = session.sql("EXPLAIN " + query("q19")).collect().rows().toString();
        String optimized = explain.substring(explain.indexOf("== Optimized Logical Plan =="),
                explain.indexOf("== Physical Plan =="));
        assertThat(optimized).contains("Join: INNER keys=[lineitem.l_partkey = part.p_partkey]").doesNotContain("CROSS");
    }

    /** Join-heavy queries again with partitioned hash joins, and with sort-merge joins over range shuffles. */
    @ParameterizedTest
    @ValueSource(strings = {"q3", "q5", "q9", "q10", "q13", "q18", "q21"})
    void sameResultsUnderOtherJoinStrategies(String name) throws Exception {
        String sql = query(name);
        List<List<Object>> expected = DuckDbOracle.sorted(duck.query(TpchQueries.forPeer(sql)));
        for (String set : List.of("SET sluice.join.broadcast-threshold = -1;",
                "SET sluice.join.broadcast-threshold = -1; SET sluice.join.sort-merge-threshold = 0;")) {
            List<List<Object>> actual = DuckDbOracle.normalize(session.sql(set + sql).collect());
            assertThat(DuckDbOracle.sorted(actual)).as(set + " " + name).isEqualTo(expected);
        }
    }

    /** Optimizing a TPC-H plan twice, under each join strategy, gives the plan of optimizing it once. */
    @ParameterizedTest
    @ValueSource(strings = {"q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8", "q9", "q10", "q11", "q12", "q13", "q14",
        "q15", "q16", "q17", "q18", "q19", "q20", "q21", "q22"})
    void physicalOptimizerIsIdempotent(String name) throws Exception {
        var catalog = session.localCluster().coordinator().queries().catalog();
        var statement = (io.sluice.sql.Statement.Query) io.sluice.sql.SqlFrontEnd.parse(query(name), catalog);
        var logical = new io.sluice.optimizer.LogicalOptimizer(
                io.sluice.optimizer.LogicalOptimizer.standardRules(StatisticsEstimator::new, new EvaluatingConstantFolder()), 16).optimize(statement.plan());
        var config = new io.sluice.physical.rules.PhysicalConfig(3);
        for (var joins : List.of(io.sluice.physical.rules.JoinSelection.DEFAULT,
                new io.sluice.physical.rules.JoinSelection(-1, Long.MAX_VALUE),
                new io.sluice.physical.rules.JoinSelection(-1, 0))) {
            var physical = new io.sluice.physical.PhysicalPlanner(joins).plan(logical);
            var once = io.sluice.physical.PhysicalOptimizer.standard().optimize(physical, config);
            var twice = io.sluice.physical.PhysicalOptimizer.standard().optimize(once, config);
            assertThat(twice.explain()).as(name + " with " + joins).isEqualTo(once.explain());
        }
    }

    /**
     * No plan joins on a constant key (a cross product, or a join whose only condition is a residual
     * filter) except where an uncorrelated scalar subquery's single row is joined to every row
     * (Q11, Q15, Q22): the join order never leaves two unrelated tables side by side.
     */
    @ParameterizedTest
    @ValueSource(strings = {"q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8", "q9", "q10", "q11", "q12", "q13", "q14",
        "q15", "q16", "q17", "q18", "q19", "q20", "q21", "q22"})
    void noJoinOnAConstantKeyButScalarSubqueries(String name) throws Exception {
        String explain = explain(name, io.sluice.coordinator.QueryConfig.defaults());
        System.out.println(name + ":\n" + explain);
        assertThat(explain).as("estimated rows per logical node").contains("  [rows=");
        if (!List.of("q11", "q15", "q22").contains(name)) {
            assertThat(constantKeyJoins(explain)).as(name + "\n" + explain).isZero();
        }
    }

    /** The specification's FROM order of Q2 and Q9 puts part next to supplier: only reordering avoids crossing them. */
    @ParameterizedTest
    @ValueSource(strings = {"q2", "q9"})
    void theWrittenOrderCrossesPartWithSupplier(String name) throws Exception {
        var written = io.sluice.coordinator.QueryConfig.defaults().with("sluice.optimizer.join-reorder", "false");
        assertThat(constantKeyJoins(explain(name, written))).isPositive();
    }

    private static String explain(String name, io.sluice.coordinator.QueryConfig config) {
        var queries = session.localCluster().coordinator().queries();
        var statement = (io.sluice.sql.Statement.Query) io.sluice.sql.SqlFrontEnd.parse(query(name),
                queries.catalog());
        return queries.explain(statement.plan(), false, config);
    }

    /** Joins in the physical plan of an EXPLAIN text whose only key is the constant a keyless join gets. */
    private static long constantKeyJoins(String explain) {
        String physical = explain.substring(explain.indexOf("== Physical Plan =="), explain.indexOf("== Stages =="));
        return physical.lines().filter(l -> l.contains("JoinExec") && l.contains("on=[(0, 0)]")).count();
    }
}
