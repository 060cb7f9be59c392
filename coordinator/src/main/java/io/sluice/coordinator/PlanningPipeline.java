package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.datasource.StatisticsEstimator;
import io.sluice.datasource.file.FileGuard;
import io.sluice.datasource.file.SourceFiles;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.expr.EvaluatingConstantFolder;
import io.sluice.optimizer.LogicalOptimizer;
import io.sluice.optimizer.LogicalRule;
import io.sluice.physical.PhysicalOptimizer;
import io.sluice.physical.PhysicalPlanner;
import io.sluice.physical.rules.PhysicalConfig;
import io.sluice.shuffle.stage.StageCutter;
import java.util.List;
import java.util.function.IntSupplier;

/**
 * A logical plan to the physical plan that runs: the logical optimizer, the physical planner and
 * the physical optimizer under one query's settings. {@code EXPLAIN} shows each step's output, so
 * its text is written here too. Every file listing planning makes (statistics, scan splits) passes
 * the coordinator's {@link FileGuard} before a listed file is opened.
 */
final class PlanningPipeline {
    private final PhysicalOptimizer physicalOptimizer = PhysicalOptimizer.standard();
    private final IntSupplier shufflePartitions;
    private final FileGuard files;

    /** {@code shufflePartitions} is the cluster's default, used when {@code sluice.shuffle.partitions} is not set. */
    PlanningPipeline(IntSupplier shufflePartitions, FileGuard files) {
        this.shufflePartitions = requireNonNull(shufflePartitions, "shufflePartitions is null");
        this.files = requireNonNull(files, "files is null");
    }

    /** The optimized physical plan of a logical plan as written; each table's files are listed once. */
    ExecutionPlan plan(LogicalPlan plan, QueryConfig config) {
        return SourceFiles.guarded(files, () -> SourceFiles.planning(() -> physicalPlan(logicalOptimizer(config).optimize(plan), config)));
    }

    /** The optimized physical plan of an optimized logical plan. */
    ExecutionPlan physicalPlan(LogicalPlan optimized, QueryConfig config) {
        return SourceFiles.guarded(files, () -> {
            int partitions = Math.max(1, config.shufflePartitions() > 0 ? config.shufflePartitions()
                    : shufflePartitions.getAsInt());
            ExecutionPlan physical = new PhysicalPlanner(config.joinSelection(), config.rangePartitionedSort(),
                    config.rangeSortMinRows(), partitions).plan(optimized);
            return physicalOptimizer.optimize(physical, new PhysicalConfig(partitions));
        });
    }

    /** Logical and optimized logical plans (with estimated rows), physical and staged plans, as text. */
    String explain(LogicalPlan plan, boolean verbose, QueryConfig config) {
        return SourceFiles.guarded(files, () -> SourceFiles.planning(() -> explainListed(plan, verbose, config)));
    }

    private String explainListed(LogicalPlan plan, boolean verbose, QueryConfig config) {
        LogicalOptimizer.Result optimized = logicalOptimizer(config).run(plan);
        ExecutionPlan physical = physicalPlan(optimized.plan(), config);
        StringBuilder out = new StringBuilder();
        StatisticsEstimator statistics = new StatisticsEstimator();
        out.append("== Logical Plan ==\n").append(plan.explain(statistics));
        if (verbose) {
            out.append("== Optimizer Passes ==\n");
            optimized.trace().forEach(t -> out.append(t).append('\n'));
        }
        out.append("== Optimized Logical Plan ==\n").append(optimized.plan().explain(statistics));
        out.append("== Physical Plan ==\n").append(physical.explain());
        out.append("== Stages ==\n").append(StageCutter.explain(StageCutter.cut(physical, "explain")));
        return out.toString();
    }

    /** The standard rules, or none when {@code sluice.optimizer.enabled} is false (the plan as written). */
    private static LogicalOptimizer logicalOptimizer(QueryConfig config) {
        List<LogicalRule> rules = config.optimizerEnabled()
                ? LogicalOptimizer.standardRules(config.joinReorder(), config.joinReorderDpLimit(),
                        StatisticsEstimator::new, new EvaluatingConstantFolder())
                : List.of();
        return new LogicalOptimizer(rules, config.maxOptimizerPasses(), config.skipFailedRules())
                .withTimeout(config.optimizerTimeout());
    }
}
