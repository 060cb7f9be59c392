package io.sluice.shuffle.stage;

import io.sluice.common.NodeMemo;
import io.sluice.common.SluiceException;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.ExecutionPlans;
import io.sluice.operators.Partitioning;
import io.sluice.operators.basic.RepartitionExec;
import io.sluice.operators.filter.RuntimeFilterExec;
import io.sluice.operators.filter.RuntimeFilterSourceExec;
import io.sluice.operators.sort.OrderedGatherExec;
import io.sluice.shuffle.ShuffleReaderExec;
import io.sluice.shuffle.ShuffleWriterExec;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Cuts a physical plan at every repartition: the subtree below becomes a stage ending in a shuffle
 * write, and a shuffle read takes the repartition's place above. The root becomes the result stage,
 * whose tasks each write their whole output to one block that the coordinator collects in
 * partition order. An ordered gather is a boundary too (its input written one block per map task,
 * read back in map order), except at the root, where the coordinator's in-order collection is the
 * gather. Stages come out in dependency order, the result stage last. A shuffle read carries the
 * estimated rows of the exchange it replaces, a shuffle write those of its input.
 */
public final class StageCutter {
    /**
     * The most operators one task may run, counting an operator once per parent that reads it:
     * within a stage a shared operator (a WITH query read twice with no exchange between) runs once
     * per parent, so a chain of them doubles per level while its plan stays small.
     */
    public static final long MAX_TASK_OPERATORS = 50_000;

    private StageCutter() {
    }

    /** The stages of a plan; a "query too complex" error when a stage's tasks would run more than {@link #MAX_TASK_OPERATORS}. */
    public static List<Stage> cut(ExecutionPlan plan, String jobId) {
        List<Stage> stages = new ArrayList<>();
        ExecutionPlan root = rewrite(withoutRootGather(plan), jobId, stages, new NodeMemo<>());
        newStage(stages, jobId, root, new Partitioning.Single()); // the result stage: always its own, and last
        for (Stage stage : stages) {
            long operators = operatorsRun(stage.plan(), new NodeMemo<>());
            if (operators > MAX_TASK_OPERATORS) {
                throw new SluiceException("query too complex: the tasks of stage " + stage.id() + " would run more than "
                        + MAX_TASK_OPERATORS + " operators, an operator shared by several parents within the stage "
                        + "running once per parent");
            }
        }
        return withRuntimeFilterDependencies(stages);
    }

    /** The operators a task of a stage runs: a shared one once per parent (saturating), counted visiting it once. */
    private static long operatorsRun(ExecutionPlan plan, NodeMemo<ExecutionPlan, Long> counted) {
        return counted.get(plan, node -> {
            long n = 1;
            for (ExecutionPlan child : node.children()) {
                n = Math.min(Long.MAX_VALUE / 2, n + operatorsRun(child, counted));
            }
            return n;
        });
    }

    /**
     * The stages with each runtime filter's probe stage made to wait for its build stage (the stage
     * holding the filter's {@link RuntimeFilterSourceExec}), whose tasks compute the filter. A filter
     * operator whose source shares its stage, or whose source stage would itself wait for that
     * stage (no exchange between the join and one of its inputs), cannot be known in time: it is
     * removed there, and its rows go unfiltered. A filter may have several such operators (the
     * planner reuses a filter on the other side of a join above); its source is removed when none
     * of them is left.
     */
    static List<Stage> withRuntimeFilterDependencies(List<Stage> stages) {
        Map<String, Integer> sources = new HashMap<>();
        Set<String> duplicated = new HashSet<>();
        for (Stage stage : stages) {
            for (String id : filterIds(stage.plan(), RuntimeFilterSourceExec.class)) {
                if (sources.putIfAbsent(id, stage.id()) != null) {
                    duplicated.add(id); // one source per filter, or its partials could not be told apart
                }
            }
        }
        List<List<Integer>> parents = new ArrayList<>();
        stages.forEach(s -> parents.add(new ArrayList<>(s.parents())));
        Set<String> consumed = new HashSet<>();
        List<Set<String>> removedFilters = new ArrayList<>();
        for (Stage stage : stages) {
            Set<String> removed = new HashSet<>();
            for (String id : filterIds(stage.plan(), RuntimeFilterExec.class)) {
                Integer source = sources.get(id);
                if (duplicated.contains(id) || source == null || dependsOn(parents, source, stage.id())) {
                    removed.add(id);
                } else {
                    consumed.add(id);
                    if (!parents.get(stage.id()).contains(source)) {
                        parents.get(stage.id()).add(source);
                    }
                }
            }
            removedFilters.add(removed);
        }
        Set<String> removedSources = new HashSet<>(duplicated);
        sources.keySet().stream().filter(id -> !consumed.contains(id)).forEach(removedSources::add);
        List<Stage> out = new ArrayList<>(stages.size());
        for (Stage stage : stages) {
            ShuffleWriterExec writer = stage.plan();
            Set<String> filters = removedFilters.get(stage.id());
            ExecutionPlan input = filters.isEmpty() && removedSources.isEmpty() ? writer.input()
                    : withoutFilters(writer.input(), filters, removedSources);
            out.add(new Stage(stage.id(), stage.shuffleId(),
                    input == writer.input() ? writer : new ShuffleWriterExec(input, writer.outputPartitioning(), writer.shuffleId())
                            .withEstimatedRows(writer.estimatedRows()),
                    parents.get(stage.id())));
        }
        return out;
    }

    /**
     * Whether stage {@code from} is {@code to} or waits for it, directly or through other stages;
     * each stage looked at once (stages reading a shared stage form a DAG, not a tree).
     */
    private static boolean dependsOn(List<List<Integer>> parents, int from, int to) {
        Set<Integer> seen = new HashSet<>();
        Deque<Integer> pending = new ArrayDeque<>(List.of(from));
        while (!pending.isEmpty()) {
            int stage = pending.pop();
            if (stage == to) {
                return true;
            }
            if (seen.add(stage)) {
                parents.get(stage).forEach(pending::push);
            }
        }
        return false;
    }

    /** The ids of the runtime filters whose operators of this class are in the plan. */
    private static Set<String> filterIds(ExecutionPlan plan, Class<? extends ExecutionPlan> type) {
        Set<String> ids = new HashSet<>();
        ExecutionPlans.transformUp(plan, node -> {
            if (node instanceof RuntimeFilterExec f && type == RuntimeFilterExec.class) {
                ids.add(f.filterId());
            } else if (node instanceof RuntimeFilterSourceExec f && type == RuntimeFilterSourceExec.class) {
                ids.add(f.filterId());
            }
            return node;
        });
        return ids;
    }

    /** The plan without the filter operators of {@code filters} and the source operators of {@code sources}. */
    private static ExecutionPlan withoutFilters(ExecutionPlan plan, Set<String> filters, Set<String> sources) {
        return ExecutionPlans.transformUp(plan, node -> {
            if (node instanceof RuntimeFilterExec f && filters.contains(f.filterId())) {
                return f.input();
            }
            if (node instanceof RuntimeFilterSourceExec f && sources.contains(f.filterId())) {
                return f.input();
            }
            return node;
        });
    }

    /** The plan cut below its exchanges; an operator shared by several parents is cut once and its stage shared. */
    private static ExecutionPlan rewrite(ExecutionPlan plan, String jobId, List<Stage> stages,
            NodeMemo<ExecutionPlan, ExecutionPlan> done) {
        return done.get(plan, p -> cut(p, jobId, stages, done));
    }

    private static ExecutionPlan cut(ExecutionPlan plan, String jobId, List<Stage> stages,
            NodeMemo<ExecutionPlan, ExecutionPlan> done) {
        List<ExecutionPlan> children = new ArrayList<>();
        for (ExecutionPlan child : plan.children()) {
            children.add(rewrite(child, jobId, stages, done));
        }
        ExecutionPlan node = children.isEmpty() ? plan : plan.withNewChildren(children);
        if (node instanceof RepartitionExec repartition) {
            Stage stage = addStage(stages, jobId, repartition.input(), repartition.partitioning());
            return new ShuffleReaderExec(repartition.schema(), stage.shuffleId(), repartition.partitioning(), List.of())
                    .withEstimatedRows(repartition.estimatedRows());
        }
        if (node instanceof OrderedGatherExec gather) {
            // one block per map task, read back in map order: the partitions concatenated in order
            Partitioning single = new Partitioning.Single();
            Stage stage = addStage(stages, jobId, gather.input(), single);
            return new ShuffleReaderExec(gather.schema(), stage.shuffleId(), List.of(), gather.properties())
                    .withEstimatedRows(gather.estimatedRows());
        }
        return node;
    }

    /**
     * The plan without an ordered gather at its root, where it costs nothing: the result stage's
     * tasks each write one block and the coordinator reads them in partition order, which is the
     * ordered concatenation itself. Projections and filters above the gather (a projection
     * dropping a hidden sort key) work row by row, so they move below it: the result stage then
     * runs them per partition, keeping the order.
     */
    static ExecutionPlan withoutRootGather(ExecutionPlan plan) {
        if (plan instanceof OrderedGatherExec gather) {
            return gather.input();
        }
        boolean rowByRow = plan.children().size() == 1
                && (!plan.projectionForPushdown().isEmpty() || !plan.gatherFiltersForPushdown().isEmpty());
        if (!rowByRow) {
            return plan;
        }
        ExecutionPlan child = plan.children().get(0);
        ExecutionPlan below = withoutRootGather(child);
        return below == child ? plan : plan.withNewChildren(List.of(below));
    }

    /**
     * The stage writing {@code input} under {@code partitioning}: an earlier stage that writes the
     * same (equal plans, their reads already rewritten to the same shuffles, and the same
     * partitioning), else a new one. So a repeated subtree (a CTE read twice, a subquery repeating
     * a join) is computed once and its shuffle read by every consumer, as Spark reuses an
     * exchange. Plans compare by value (operators are records); one holding a per-instance part
     * (a runtime filter's id, an unresolved split-point set) equals no other and is not shared.
     * An input that calls {@code rand} then gives every consumer the same rows, as a WITH query
     * materialized once does in PostgreSQL (and as Spark's reused exchange does).
     */
    private static Stage addStage(List<Stage> stages, String jobId, ExecutionPlan input, Partitioning partitioning) {
        for (Stage stage : stages) {
            if (stage.plan().outputPartitioning().equals(partitioning) && stage.plan().input().equals(input)) {
                return stage;
            }
        }
        return newStage(stages, jobId, input, partitioning);
    }

    private static Stage newStage(List<Stage> stages, String jobId, ExecutionPlan input, Partitioning partitioning) {
        int id = stages.size();
        String shuffleId = jobId + "-s" + id;
        List<String> readShuffles = new ArrayList<>();
        collectReads(input, readShuffles);
        List<Integer> parents = new ArrayList<>();
        for (Stage s : stages) {
            if (readShuffles.contains(s.shuffleId())) {
                parents.add(s.id());
            }
        }
        Stage stage = new Stage(id, shuffleId,
                new ShuffleWriterExec(input, partitioning, shuffleId).withEstimatedRows(input.estimatedRows()),
                parents);
        stages.add(stage);
        return stage;
    }

    private static void collectReads(ExecutionPlan plan, List<String> out) {
        ExecutionPlans.transformUp(plan, node -> {
            if (node instanceof ShuffleReaderExec reader) {
                out.add(reader.shuffleId());
            }
            return node;
        });
    }

    /** The stages as text, for EXPLAIN. */
    public static String explain(List<Stage> stages) {
        StringBuilder out = new StringBuilder();
        for (Stage s : stages) {
            out.append("Stage ").append(s.id()).append(" (").append(s.taskCount()).append(" tasks")
                    .append(s.parents().isEmpty() ? "" : ", after stages " + s.parents().stream().map(String::valueOf)
                            .collect(Collectors.joining(", ")))
                    .append(s.id() == stages.size() - 1 ? ", result" : "").append(")\n");
            for (String line : s.plan().explain().split("\n")) {
                out.append("  ").append(line).append('\n');
            }
        }
        return out.toString();
    }
}
