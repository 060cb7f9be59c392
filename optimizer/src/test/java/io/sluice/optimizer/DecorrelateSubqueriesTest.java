package io.sluice.optimizer;

import static io.sluice.optimizer.RuleTesting.assertRewrite;
import static io.sluice.optimizer.RuleTesting.assertUnchanged;
import static io.sluice.optimizer.RuleTesting.sql;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.datasource.StatisticsEstimator;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.operators.expr.EvaluatingConstantFolder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The TPC-H shapes, now special cases of the general rule, and the general cases. */
class DecorrelateSubqueriesTest {
    private final DecorrelateSubqueries rule = new DecorrelateSubqueries();

    @Test
    void uncorrelatedInBecomesASemiJoin() {
        assertRewrite(rule, sql("SELECT k FROM t WHERE v > 1 AND k IN (SELECT k FROM u WHERE a > 0)"), """
                Projection: k
                  Filter: ((v > 1) AND k IN (subquery))
                    Subquery: k IN (subquery)
                      Projection: k
                        Filter: (a > 0)
                          TableScan: u
                    TableScan: t
                """, """
                Projection: k
                  Filter: (v > 1)
                    Join: LEFT_SEMI keys=[k = __sq1.k]
                      TableScan: t
                      Projection: k AS __sq1.k
                        Projection: k
                          Filter: (a > 0)
                            TableScan: u
                """);
    }

    @Test
    void uncorrelatedNotInBecomesANullAwareAntiJoin() {
        assertRewrite(rule, sql("SELECT k FROM t WHERE k NOT IN (SELECT k FROM u)"), """
                Projection: k
                  Filter: k NOT IN (subquery)
                    Subquery: k NOT IN (subquery)
                      Projection: k
                        TableScan: u
                    TableScan: t
                """, """
                Projection: k
                  Join: LEFT_ANTI_NULL_AWARE keys=[k = __sq1.k]
                    TableScan: t
                    Projection: k AS __sq1.k
                      Projection: k
                        TableScan: u
                """);
    }

    @Test
    void correlatedExistsPullsEqualitiesIntoKeysAndTheRestIntoTheFilter() {
        assertRewrite(rule, sql("SELECT k FROM t WHERE EXISTS (SELECT * FROM u WHERE u.k = t.k AND a > v AND x > 1)"), """
                Projection: k
                  Filter: EXISTS (subquery)
                    Subquery: EXISTS (subquery)
                      Projection: k, a, x
                        Filter: (((k = outer(k)) AND (a > outer(v))) AND (x > 1))
                          TableScan: u
                    TableScan: t
                """, """
                Projection: k
                  Join: LEFT_SEMI keys=[k = __sq1.k] filter=(__sq1.a > v)
                    TableScan: t
                    Projection: k AS __sq1.k, a AS __sq1.a
                      Projection: k, a, x
                        Filter: (x > 1)
                          TableScan: u
                """);
    }

    @Test
    void correlatedNotExistsBecomesAnAntiJoin() {
        assertRewrite(rule, sql("SELECT t.k FROM t, u AS w WHERE t.k = w.k AND NOT EXISTS (SELECT 1 FROM u WHERE u.a = t.v)"), """
                Projection: t.k AS k
                  Filter: ((t.k = w.k) AND NOT EXISTS (subquery))
                    Subquery: NOT EXISTS (subquery)
                      Projection: 1
                        Filter: (a = outer(t.v))
                          TableScan: u
                    Join: CROSS
                      SubqueryAlias: t
                        TableScan: t
                      SubqueryAlias: w
                        TableScan: u
                """, """
                Projection: t.k AS k
                  Filter: (t.k = w.k)
                    Join: LEFT_ANTI keys=[t.v = __sq1.a]
                      Join: CROSS
                        SubqueryAlias: t
                          TableScan: t
                        SubqueryAlias: w
                          TableScan: u
                      Projection: a AS __sq1.a
                        Projection: 1, a
                          TableScan: u
                """);
    }

    @Test
    void correlatedInAddsTheValueAsFirstKey() {
        assertRewrite(rule, sql("SELECT k FROM t WHERE v IN (SELECT a FROM u WHERE u.k = t.k)"), """
                Projection: k
                  Filter: v IN (subquery)
                    Subquery: v IN (subquery)
                      Projection: a
                        Filter: (k = outer(k))
                          TableScan: u
                    TableScan: t
                """, """
                Projection: k
                  Join: LEFT_SEMI keys=[v = __sq1.a, k = __sq1.k]
                    TableScan: t
                    Projection: k AS __sq1.k, a AS __sq1.a
                      Projection: a, k
                        TableScan: u
                """);
    }

    @Test
    void nestedSubqueriesAreRewrittenFirst() {
        assertRewrite(rule, sql("SELECT k FROM t WHERE k IN (SELECT k FROM u WHERE EXISTS (SELECT 1 FROM t WHERE t.v = u.a))"), """
                Projection: k
                  Filter: k IN (subquery)
                    Subquery: k IN (subquery)
                      Projection: k
                        Filter: EXISTS (subquery)
                          Subquery: EXISTS (subquery)
                            Projection: 1
                              Filter: (v = outer(a))
                                TableScan: t
                          TableScan: u
                    TableScan: t
                """, """
                Projection: k
                  Join: LEFT_SEMI keys=[k = __sq1.k]
                    TableScan: t
                    Projection: k AS __sq1.k
                      Projection: k
                        Join: LEFT_SEMI keys=[a = __sq1.v]
                          TableScan: u
                          Projection: v AS __sq1.v
                            Projection: 1, v
                              TableScan: t
                """);
    }


    // ---- scalar subqueries ----

    @Test
    void uncorrelatedBecomesACrossJoinWithTheOneRow() {
        assertRewrite(rule, sql("SELECT k FROM t WHERE v > (SELECT avg(a) FROM u)"), """
                Projection: k
                  Filter: (v > (scalar subquery))
                    Subquery: (scalar subquery)
                      Projection: avg(a)
                        Aggregate: groupBy=[], aggr=[avg(a)]
                          TableScan: u
                    TableScan: t
                """, """
                Projection: k
                  Projection: k, v, d, flag
                    Filter: (v > __sq1.value)
                      Join: INNER keys=[0 = 0]
                        TableScan: t
                        Projection: avg(a) AS __sq1.value
                          Projection: avg(a)
                            Aggregate: groupBy=[], aggr=[avg(a)]
                              TableScan: u
                """);
    }

    @Test
    void correlatedBecomesALeftJoinWithTheAggregateGroupedByTheKeys() {
        assertRewrite(rule, sql("SELECT k FROM t WHERE v < (SELECT 2 * max(a) FROM u WHERE u.k = t.k AND x > 0)"), """
                Projection: k
                  Filter: (v < (scalar subquery))
                    Subquery: (scalar subquery)
                      Projection: (2 * max(a))
                        Aggregate: groupBy=[], aggr=[max(a)]
                          Filter: ((k = outer(k)) AND (x > 0))
                            TableScan: u
                    TableScan: t
                """, """
                Projection: k
                  Projection: k, v, d, flag
                    Filter: (v < (2 * __sq1.max(a)))
                      Join: LEFT keys=[k = __sq1.k]
                        TableScan: t
                        Projection: k AS __sq1.k, max(a) AS __sq1.max(a)
                          Aggregate: groupBy=[k], aggr=[max(a)]
                            Filter: (x > 0)
                              TableScan: u
                """);
    }

    @Test
    void aCountOverNoRowsIsZeroNotNull() {
        assertRewrite(rule, sql("SELECT k, (SELECT count(*) FROM u WHERE u.k = t.k) AS n FROM t"), """
                Projection: k, (scalar subquery) AS n
                  Subquery: (scalar subquery)
                    Projection: count(*)
                      Aggregate: groupBy=[], aggr=[count(*)]
                        Filter: (k = outer(k))
                          TableScan: u
                  TableScan: t
                """, """
                Projection: k, CASE WHEN __sq1.k IS NULL THEN 0 ELSE __sq1.count(*) END AS n
                  Join: LEFT keys=[k = __sq1.k]
                    TableScan: t
                    Projection: k AS __sq1.k, count(*) AS __sq1.count(*)
                      Aggregate: groupBy=[k], aggr=[count(*)]
                        TableScan: u
                """);
    }


    // ---- the general cases ----

    @Test
    void existsUnderOrBecomesAMarkJoinTheFilterReads() {
        assertGeneralRewrite("SELECT k FROM t WHERE v > 1 OR EXISTS (SELECT 1 FROM u WHERE u.k = t.k)", """
                Projection: k
                  Projection: k, v, d, flag
                    Filter: ((v > 1) OR __sq1.mark)
                      Join: LEFT_MARK keys=[k = __sq1.k] mark=__sq1.mark
                        TableScan: t
                        Projection: k AS __sq1.k
                          Projection: 1, k
                            TableScan: u
                """);
    }

    @Test
    void correlatedNotInIsAMarkJoinWithTheNullAwareCondition() {
        assertGeneralRewrite("SELECT k FROM t WHERE k NOT IN (SELECT k FROM u WHERE u.a = t.v)", """
                Projection: k
                  Projection: k, v, d, flag
                    Filter: NOT __sq1.mark
                      Join: LEFT_MARK keys=[v = __sq1.a] mark=__sq1.mark := (k = __sq1.k)
                        TableScan: t
                        Projection: a AS __sq1.a, k AS __sq1.k
                          Projection: k, a
                            TableScan: u
                """);
    }

    @Test
    void aNonEqualityUnderAnAggregateJoinsTheDomainOfOuterValues() {
        assertGeneralRewrite("SELECT k, (SELECT count(*) FROM u WHERE u.a < t.v) AS c FROM t", """
                Projection: k, __sq1.value AS c
                  Join: LEFT keys=[CASE WHEN v IS NULL THEN 0 ELSE v END = CASE WHEN __sq1.v_0 IS NULL THEN 0 ELSE __sq1.v_0 END, v IS NULL = __sq1.v_0 IS NULL]
                    TableScan: t
                    Projection: __d1_0.v_0 AS __sq1.v_0, count(*) AS __sq1.value
                      Projection: count(*), __d1_0.v_0
                        Projection: __d1_1.v_0 AS __d1_0.v_0, CASE WHEN count(*) IS NULL THEN 0 ELSE count(*) END AS count(*)
                          Join: LEFT keys=[CASE WHEN __d1_1.v_0 IS NULL THEN 0 ELSE __d1_1.v_0 END = CASE WHEN __d1_0.v_0 IS NULL THEN 0 ELSE __d1_0.v_0 END, __d1_1.v_0 IS NULL = __d1_0.v_0 IS NULL]
                            Aggregate: groupBy=[__d1_1.v_0], aggr=[]
                              Projection: v AS __d1_1.v_0
                                TableScan: t
                            Aggregate: groupBy=[__d1_0.v_0], aggr=[count(*)]
                              Filter: (a < __d1_0.v_0)
                                Join: CROSS
                                  Aggregate: groupBy=[__d1_0.v_0], aggr=[]
                                    Projection: v AS __d1_0.v_0
                                      TableScan: t
                                  TableScan: u
                """);
    }

    @Test
    void inInTheSelectListIsAMarkColumn() {
        assertGeneralRewrite("SELECT k, v IN (SELECT a FROM u WHERE u.k = t.k) AS m FROM t", """
                Projection: k, __sq1.mark AS m
                  Join: LEFT_MARK keys=[k = __sq1.k] mark=__sq1.mark := (v = __sq1.a)
                    TableScan: t
                    Projection: k AS __sq1.k, a AS __sq1.a
                      Projection: a, k
                        TableScan: u
                """);
    }

    @Test
    void allIsTheNegatedMarkOfTheNegatedComparison() {
        assertGeneralRewrite("SELECT k FROM t WHERE v > ALL (SELECT a FROM u WHERE u.k = t.k)", """
                Projection: k
                  Projection: k, v, d, flag
                    Filter: NOT __sq1.mark
                      Join: LEFT_MARK keys=[k = __sq1.k] mark=__sq1.mark := NOT (v > __sq1.a)
                        TableScan: t
                        Projection: k AS __sq1.k, a AS __sq1.a
                          Projection: a, k
                            TableScan: u
                """);
    }

    @Test
    void aScalarSubqueryThatMayReturnSeveralRowsIsGroupedWithSingleValue() {
        assertGeneralRewrite("SELECT k FROM t WHERE v = (SELECT a FROM u WHERE u.k = t.k)", """
                Projection: k
                  Projection: k, v, d, flag
                    Filter: (v = __sq1.value)
                      Join: LEFT keys=[k = __sq1.k]
                        TableScan: t
                        Projection: k AS __sq1.k, __single_value AS __sq1.value
                          Aggregate: groupBy=[k], aggr=[single_value(a) AS __single_value]
                            Projection: a, k
                              TableScan: u
                """);
    }

    @Test
    void uncorrelatedInAsAValueIsHashedOnTheValuesWithCountsForItsNulls() {
        assertGeneralRewrite("SELECT k, v IN (SELECT a FROM u) AS m FROM t", """
                Projection: k, CASE WHEN __sq2.mark THEN true WHEN (__sq1.rows = 0) THEN false WHEN (v IS NULL OR (__sq1.values < __sq1.rows)) THEN NULL ELSE false END AS m
                  Join: LEFT_MARK keys=[v = __sq2.a] mark=__sq2.mark
                    Join: INNER keys=[0 = 0]
                      TableScan: t
                      Projection: __rows AS __sq1.rows, __values AS __sq1.values
                        Aggregate: groupBy=[], aggr=[count(*) AS __rows, count(a) AS __values]
                          Projection: a
                            TableScan: u
                    Projection: a AS __sq2.a
                      Projection: a  (shared: printed above)
                """);
    }

    @Test
    void subqueriesInAggregateArgumentsAreComputedByAProjectionBelow() {
        assertGeneralRewrite("SELECT k, sum((SELECT count(*) FROM u WHERE u.k = t.k)) AS s FROM t GROUP BY k", """
                Projection: k, sum((scalar subquery)) AS s
                  Aggregate: groupBy=[k], aggr=[sum(__aggregate_argument_1) AS sum((scalar subquery))]
                    Projection: k, v, d, flag, CASE WHEN __sq1.k IS NULL THEN 0 ELSE __sq1.count(*) END AS __aggregate_argument_1
                      Join: LEFT keys=[k = __sq1.k]
                        TableScan: t
                        Projection: k AS __sq1.k, count(*) AS __sq1.count(*)
                          Aggregate: groupBy=[k], aggr=[count(*)]
                            TableScan: u
                """);
    }

    @Test
    void aCorrelatedLimitIsARowNumberPerOuterValue() {
        assertGeneralRewrite("SELECT k FROM t WHERE v = (SELECT a FROM u WHERE u.k = t.k ORDER BY x LIMIT 1)", """
                Projection: k
                  Projection: k, v, d, flag
                    Filter: (v = __sq1.value)
                      Join: LEFT keys=[k = __sq1.k]
                        TableScan: t
                        Projection: k AS __sq1.k, __single_value AS __sq1.value
                          Aggregate: groupBy=[k], aggr=[single_value(a) AS __single_value]
                            Projection: a, k
                              Projection: a, x, k
                                Filter: (__d1_rn1 <= 1)
                                  Window: row_number() OVER (PARTITION BY k ORDER BY x ASC NULLS LAST) AS __d1_rn1
                                    Projection: a, x, k
                                      TableScan: u
                """);
    }

    @Test
    void anOuterReferenceInTheOrderOfALimitNumbersPerDomainValue() {
        assertGeneralRewrite("SELECT k, EXISTS (SELECT 1 FROM u WHERE u.a > t.v ORDER BY abs(u.a - t.v) LIMIT 1 OFFSET 1) AS e FROM t", """
                Projection: k, __sq1.mark AS e
                  Join: LEFT_MARK keys=[CASE WHEN v IS NULL THEN 0 ELSE v END = CASE WHEN __sq1.v_0 IS NULL THEN 0 ELSE __sq1.v_0 END, v IS NULL = __sq1.v_0 IS NULL] mark=__sq1.mark
                    TableScan: t
                    Projection: __d1_0.v_0 AS __sq1.v_0
                      Projection: 1, __d1_0.v_0
                        Projection: 1, abs((a - outer(v))), __d1_0.v_0
                          Filter: ((__d1_rn1 > 1) AND (__d1_rn1 <= 2))
                            Window: row_number() OVER (PARTITION BY __d1_0.v_0 ORDER BY abs((a - outer(v))) ASC NULLS LAST) AS __d1_rn1
                              Projection: 1, abs((a - __d1_0.v_0)) AS abs((a - outer(v))), __d1_0.v_0
                                Filter: (a > __d1_0.v_0)
                                  Join: CROSS
                                    Aggregate: groupBy=[__d1_0.v_0], aggr=[]
                                      Projection: v AS __d1_0.v_0
                                        TableScan: t
                                    TableScan: u
                """);
    }

    @Test
    void aWindowOverACorrelatedInputIsPartitionedByTheOuterValue() {
        assertGeneralRewrite("SELECT k FROM t WHERE v IN (SELECT rank() OVER (ORDER BY x) FROM u WHERE u.k = t.k)", """
                Projection: k
                  Join: LEFT_SEMI keys=[v = __sq1.rank() OVER (ORDER BY x ASC NULLS LAST), k = __sq1.k]
                    TableScan: t
                    Projection: k AS __sq1.k, rank() OVER (ORDER BY x ASC NULLS LAST) AS __sq1.rank() OVER (ORDER BY x ASC NULLS LAST)
                      Projection: rank() OVER (ORDER BY x ASC NULLS LAST), k
                        Window: rank() OVER (PARTITION BY k ORDER BY x ASC NULLS LAST) AS rank() OVER (ORDER BY x ASC NULLS LAST)
                          TableScan: u
                """);
    }

    @Test
    void aCorrelatedFullJoinJoinsTheDomainIntoBothInputs() {
        assertGeneralRewrite("SELECT k FROM t WHERE v < (SELECT count(*) FROM u FULL JOIN t AS w ON u.k = w.k AND u.a > t.v)", """
                Projection: k
                  Projection: k, v, d, flag
                    Filter: (v < __sq1.value)
                      Join: LEFT keys=[CASE WHEN v IS NULL THEN 0 ELSE v END = CASE WHEN __sq1.v_0 IS NULL THEN 0 ELSE __sq1.v_0 END, v IS NULL = __sq1.v_0 IS NULL]
                        TableScan: t
                        Projection: __d1_0.v_0 AS __sq1.v_0, count(*) AS __sq1.value
                          Projection: count(*), __d1_0.v_0
                            Projection: __d1_1.v_0 AS __d1_0.v_0, CASE WHEN count(*) IS NULL THEN 0 ELSE count(*) END AS count(*)
                              Join: LEFT keys=[CASE WHEN __d1_1.v_0 IS NULL THEN 0 ELSE __d1_1.v_0 END = CASE WHEN __d1_0.v_0 IS NULL THEN 0 ELSE __d1_0.v_0 END, __d1_1.v_0 IS NULL = __d1_0.v_0 IS NULL]
                                Aggregate: groupBy=[__d1_1.v_0], aggr=[]
                                  Projection: v AS __d1_1.v_0
                                    TableScan: t
                                Aggregate: groupBy=[__d1_0.v_0], aggr=[count(*)]
                                  Projection: u.k, u.a, u.x, w.k, w.v, w.d, w.flag, CASE WHEN __d1_0.v_0 IS NULL THEN __d1_2.v_0 ELSE __d1_0.v_0 END AS __d1_0.v_0
                                    Join: FULL keys=[u.k = w.k, CASE WHEN __d1_0.v_0 IS NULL THEN 0 ELSE __d1_0.v_0 END = CASE WHEN __d1_2.v_0 IS NULL THEN 0 ELSE __d1_2.v_0 END, __d1_0.v_0 IS NULL = __d1_2.v_0 IS NULL] filter=(u.a > __d1_0.v_0)
                                      Projection: u.k, u.a, u.x, __d1_0.v_0
                                        Join: CROSS
                                          Aggregate: groupBy=[__d1_0.v_0], aggr=[]
                                            Projection: v AS __d1_0.v_0
                                              TableScan: t
                                          SubqueryAlias: u
                                            TableScan: u
                                      Projection: w.k, w.v, w.d, w.flag, __d1_0.v_0 AS __d1_2.v_0
                                        Join: CROSS
                                          Aggregate: groupBy=[__d1_0.v_0], aggr=[]
                                            Projection: v AS __d1_0.v_0
                                              TableScan: t
                                          SubqueryAlias: w
                                            TableScan: t
                """);
    }

    @Test
    void aSubqueryInAnOuterJoinConditionIsAColumnOfTheInputItReads() {
        assertGeneralRewrite("SELECT t.k, u.a FROM t RIGHT JOIN u ON t.k = u.k AND t.v < (SELECT max(a) FROM u AS u2 WHERE u2.k = u.k)", """
                Projection: t.k AS k, u.a AS a
                  Projection: t.k, t.v, t.d, t.flag, u.k, u.a, u.x
                    Join: RIGHT keys=[t.k = u.k] filter=(t.v < __on_1)
                      SubqueryAlias: t
                        TableScan: t
                      Projection: u.k, u.a, u.x, __sq1.max(a) AS __on_1
                        Join: LEFT keys=[u.k = __sq1.k]
                          SubqueryAlias: u
                            TableScan: u
                          Projection: k AS __sq1.k, max(a) AS __sq1.max(a)
                            Aggregate: groupBy=[k], aggr=[max(a)]
                              TableScan: u
                """);
    }

    @Test
    void aSubqueryInGroupByIsComputedByAProjectionBelow() {
        assertGeneralRewrite("SELECT k IN (SELECT k FROM u WHERE u.a > t.v) AS m, count(*) AS c FROM t GROUP BY k IN (SELECT k FROM u WHERE u.a > t.v)", """
                Projection: k IN (subquery) AS m, count(*) AS c
                  Aggregate: groupBy=[__group_key_1 AS k IN (subquery)], aggr=[count(*)]
                    Projection: k, v, d, flag, __sq1.mark AS __group_key_1
                      Join: LEFT_MARK keys=[0 = 0] filter=(__sq1.a > v) mark=__sq1.mark := (k = __sq1.k)
                        TableScan: t
                        Projection: a AS __sq1.a, k AS __sq1.k
                          Projection: k, a
                            TableScan: u
                """);
    }

    /**
     * The whole optimizer reaches a plain fixed point (the last pass repeats the one before, not a
     * cycle) on the shapes whose decorrelation adds windows, domains on both join inputs and
     * computed join inputs, and no subquery is left.
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT k FROM t WHERE v = (SELECT a FROM u WHERE u.k = t.k ORDER BY x LIMIT 1)",
        "SELECT k FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.a > t.v ORDER BY abs(u.a - t.v) LIMIT 1 OFFSET 1)",
        "SELECT k, (SELECT sum(a) FROM (SELECT a FROM u WHERE u.k = t.k ORDER BY a LIMIT 2) s) AS s FROM t",
        "SELECT k FROM t WHERE v IN (SELECT rank() OVER (ORDER BY x) FROM u WHERE u.k = t.k)",
        "SELECT k, (SELECT max(c) FROM (SELECT count(*) OVER (PARTITION BY a > t.v) AS c FROM u) s) AS m FROM t",
        "SELECT k FROM t WHERE v < (SELECT count(*) FROM u FULL JOIN t AS w ON u.k = w.k AND u.a > t.v)",
        "SELECT k FROM t WHERE v < (SELECT count(*) FROM u RIGHT JOIN (SELECT * FROM t AS w WHERE w.v = t.v) s ON u.k = s.k)",
        "SELECT t.k, u.a FROM t LEFT JOIN u ON t.k = u.k AND EXISTS (SELECT 1 FROM u AS u2 WHERE u2.k = t.k AND u2.a > 1)",
        "SELECT k IN (SELECT k FROM u WHERE u.a > t.v) AS m, count(*) AS c FROM t GROUP BY k IN (SELECT k FROM u WHERE u.a > t.v)",
        // both inputs of a join below carry a column of one name for their pulled predicates
        "SELECT o.k FROM t AS o WHERE NOT EXISTS (SELECT 1 FROM (SELECT * FROM u AS d2 WHERE d2.a = o.v) AS j2"
                + " LEFT JOIN t AS i1 ON i1.k = j2.k WHERE i1.v <= o.v AND EXISTS (SELECT 1 FROM u AS i3 RIGHT JOIN"
                + " (SELECT * FROM u AS d4 WHERE d4.a = i1.v) AS j4 ON i3.k = j4.k WHERE i3.a = i1.v AND i3.x = j2.x)"
                + " ORDER BY i1.v LIMIT 2)",
    })
    void theOptimizerReachesAFixedPointWithoutSubqueries(String query) {
        LogicalOptimizer.Result r = LogicalOptimizer.standard(StatisticsEstimator::new, new EvaluatingConstantFolder()).run(sql(query));
        assertThat(r.fixedPoint()).as("fixed point, trace:\n%s", String.join("\n", r.trace())).isTrue();
        assertThat(r.repeatedPass()).as("the last pass repeats the one before").isEqualTo(r.passes() - 1);
        assertThat(r.plan().explain()).doesNotContain("Subquery:");
        assertThat(readsOuter(r.plan())).as("an outer reference is left").isFalse();
    }

    private static boolean readsOuter(LogicalPlan plan) {
        return plan.expressions().stream().anyMatch(Exprs::containsOuterColumn)
                || plan.children().stream().anyMatch(DecorrelateSubqueriesTest::readsOuter);
    }

    /** The rule's plan for {@code query}, and that a second pass changes nothing (the fixed point). */
    private void assertGeneralRewrite(String query, String expected) {
        LogicalPlan after = rule.apply(sql(query));
        assertThat(after.explain()).isEqualTo(expected);
        assertThat(rule.apply(after)).as("a second pass changes nothing").isSameAs(after);
    }
}
