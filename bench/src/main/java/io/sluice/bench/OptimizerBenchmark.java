package io.sluice.bench;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.datasource.StatisticsEstimator;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.JoinType;
import io.sluice.logical.plan.Limit;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.logical.plan.TableScan;
import io.sluice.logical.plan.Union;
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.TableSource;
import io.sluice.operators.expr.EvaluatingConstantFolder;
import io.sluice.optimizer.LogicalOptimizer;
import io.sluice.optimizer.LogicalRule;
import io.sluice.optimizer.PlanSignature;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the logical optimizer costs on a large plan, and what its fixed-point check costs next to
 * the alternatives: a full optimize, one pass of all rules (the first, which rewrites most, and one
 * over the optimized plan, which rewrites nothing and is pure traversal), {@link PlanSignature#of},
 * and comparing two equal but distinct plans structurally (record {@code equals}, printed plans).
 *
 * <p>The plan (see {@link #build()}; 501 nodes, 411 once optimized, fixed point at pass 2) is a {@code LIMIT} over a union
 * of 90 filter/projection chains over table scans (with constant folding, filter and projection
 * merging and pushdown, and column pruning to do) and a 20-table left-deep chain of inner joins, some
 * keyed, some cross joins with their equality in a filter above. Table sources are made up: the
 * logical optimizer never reads files.
 *
 * <p>Measured on the 2-core helper VM (JDK 17, load average 5 to 13 from parallel builds, so the
 * error bars are wide; the ratios are what to read), {@code bin/bench OptimizerBenchmark -wi 2 -i 3 -w 1 -r 1 -f 1}:
 * <pre>
 * Benchmark                                  Mode  Cnt      Score   Units
 * OptimizerBenchmark.optimizeToFixedPoint    avgt    3  68056.687   us/op   (2 passes, trace included)
 * OptimizerBenchmark.firstPass               avgt    3  33214.028   us/op
 * OptimizerBenchmark.passAtFixedPoint        avgt    3   8193.535   us/op   (no rewrite: traversal only)
 * OptimizerBenchmark.signature               avgt    3    330.759   us/op
 * OptimizerBenchmark.signatureOptimized      avgt    3    159.326   us/op
 * OptimizerBenchmark.equalsExplain           avgt    3   1035.242   us/op
 * OptimizerBenchmark.equalsRecords           avgt    3     19.107   us/op
 * OptimizerBenchmark.equalsRecordsOptimized  avgt    3     14.854   us/op
 * </pre>
 *
 * <p>Reading: the fixed-point check ({@code PlanSignature.of}, twice per pass) is under 1% of a
 * pass; record equality would be 10 to 20 times cheaper still, but only compares with one earlier
 * plan, not all of them. A pass that rewrites nothing still costs a quarter of the first pass: the
 * stack profiler ({@code -prof stack}) puts most of it in recomputing schemas ({@code Join.concat},
 * {@code TableScan.schema}): plan nodes compute {@code schema()} on every call, and a 20-deep join
 * chain recomputes the chain each time a rule asks for it. Caching schemas in the nodes is the
 * obvious next step.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "-Dio.netty.noUnsafe=false"})
public class OptimizerBenchmark {
    static final int UNION_CHAINS = 90;
    static final int JOIN_TABLES = 20;

    private LogicalOptimizer optimizer;
    private List<LogicalRule> rules;
    private LogicalPlan plan;
    private LogicalPlan copy;
    private LogicalPlan optimized;
    private LogicalPlan optimizedCopy;

    @Setup(Level.Trial)
    public void setup() {
        rules = LogicalOptimizer.standardRules(StatisticsEstimator::new, new EvaluatingConstantFolder());
        optimizer = new LogicalOptimizer(rules, 32);
        plan = build();
        copy = build();
        LogicalOptimizer.Result result = optimizer.run(plan);
        if (!result.fixedPoint()) {
            throw new IllegalStateException("no fixed point within 32 passes");
        }
        optimized = result.plan();
        optimizedCopy = optimizer.optimize(copy);
        if (plan == copy || !plan.equals(copy) || optimized == optimizedCopy || !optimized.equals(optimizedCopy)) {
            throw new IllegalStateException("the copies must be equal and distinct");
        }
        System.err.printf("plan: %d nodes, optimized: %d nodes in %d passes (fixed point repeats pass %d)%n",
                PlanSignature.of(plan).nodeCount(), PlanSignature.of(optimized).nodeCount(), result.passes(),
                result.repeatedPass());
    }

    /** LIMIT 1000 over a union of {@link #UNION_CHAINS} chains and the projected join chain. */
    static LogicalPlan build() {
        List<LogicalPlan> inputs = new ArrayList<>();
        for (int i = 0; i < UNION_CHAINS; i++) {
            inputs.add(chain(i));
        }
        inputs.add(joinChain());
        return new Limit(new Union(inputs), 0, 1000);
    }

    /**
     * Five nodes over table {@code u<i>}: Projection(Filter(Projection(Filter(TableScan)))), with a
     * foldable constant and a redundant {@code AND true}, a filter to push through a projection and
     * merge, projections to merge, and unused columns to prune.
     */
    private static LogicalPlan chain(int i) {
        TableSource source = new TableSource("u" + i, FileFormat.PARQUET, "/fake/u" + i, Schema.of(
                new Field("id", DataType.INT64), new Field("k", DataType.UTF8), new Field("v", DataType.INT64),
                new Field("x", DataType.FLOAT64), new Field("flag", DataType.BOOL), new Field("pad", DataType.UTF8)));
        LogicalPlan p = new TableScan(source);
        p = new Filter(p, new Binary(BinaryOp.AND,
                new Binary(BinaryOp.GT, col("v"), new Binary(BinaryOp.ADD, Literal.of(1), Literal.of(1))),
                Literal.of(true)));
        p = new Projection(p, List.of(col("id"), col("k"),
                new Alias(new Binary(BinaryOp.ADD, col("v"), Literal.of(1)), "v1"), col("x")));
        p = new Filter(p, new Binary(BinaryOp.GT, col("v1"), Literal.of(i)));
        return new Projection(p, List.of(col("id"), col("k"), new Alias(col("v1"), "v")));
    }

    /**
     * {@link #JOIN_TABLES} tables {@code j<i>(j<i>_id, j<i>_fk, j<i>_v, j<i>_s)} joined left-deep on
     * {@code j<i-1>_fk = j<i>_id}: every third join a cross join with the equality (and a filter on
     * the new table) in a filter above, every fifth table also filtered above its join; projected to
     * the union's three columns.
     */
    private static LogicalPlan joinChain() {
        LogicalPlan acc = joinTable(0);
        for (int i = 1; i < JOIN_TABLES; i++) {
            LogicalPlan right = joinTable(i);
            Expr leftKey = col("j" + (i - 1) + "_fk");
            Expr rightKey = col("j" + i + "_id");
            if (i % 3 == 0) {
                acc = new Filter(Join.cross(acc, right), new Binary(BinaryOp.AND,
                        new Binary(BinaryOp.EQ, leftKey, rightKey),
                        new Binary(BinaryOp.GT, col("j" + i + "_v"), Literal.of(10))));
            } else {
                acc = new Join(acc, right, JoinType.INNER, List.of(leftKey), List.of(rightKey), null);
            }
            if (i % 5 == 0) {
                acc = new Filter(acc, new Binary(BinaryOp.LT, col("j" + i + "_v"), Literal.of(1000)));
            }
        }
        int last = JOIN_TABLES - 1;
        return new Projection(acc, List.of(new Alias(col("j0_id"), "id"), new Alias(col("j" + last + "_s"), "k"),
                new Alias(col("j" + last + "_v"), "v")));
    }

    private static LogicalPlan joinTable(int i) {
        String p = "j" + i + "_";
        return new TableScan(new TableSource("j" + i, FileFormat.PARQUET, "/fake/j" + i, Schema.of(
                new Field(p + "id", DataType.INT64), new Field(p + "fk", DataType.INT64),
                new Field(p + "v", DataType.INT64), new Field(p + "s", DataType.UTF8))));
    }

    private static Expr col(String name) {
        return new Column(name);
    }

    /** The whole optimizer loop to its fixed point, trace included, as the coordinator runs it. */
    @Benchmark
    public LogicalPlan optimizeToFixedPoint() {
        return optimizer.run(plan).plan();
    }

    /** One pass of every rule over the unoptimized plan: the pass that rewrites the most. */
    @Benchmark
    public LogicalPlan firstPass() {
        LogicalPlan p = plan;
        for (LogicalRule rule : rules) {
            p = rule.apply(p);
        }
        return p;
    }

    /** One pass of every rule over the optimized plan: nothing changes, so this is pure traversal. */
    @Benchmark
    public LogicalPlan passAtFixedPoint() {
        LogicalPlan p = optimized;
        for (LogicalRule rule : rules) {
            p = rule.apply(p);
        }
        return p;
    }

    @Benchmark
    public PlanSignature signature() {
        return PlanSignature.of(plan);
    }

    @Benchmark
    public PlanSignature signatureOptimized() {
        return PlanSignature.of(optimized);
    }

    /** Record equality of two equal, distinct plans: walks both trees and every expression. */
    @Benchmark
    public boolean equalsRecords() {
        return plan.equals(copy);
    }

    @Benchmark
    public boolean equalsRecordsOptimized() {
        return optimized.equals(optimizedCopy);
    }

    /** The printed plans of two equal, distinct plans compared, as optimizer tests compare them. */
    @Benchmark
    public boolean equalsExplain() {
        return plan.explain().equals(copy.explain());
    }
}
