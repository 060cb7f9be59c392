package io.sluice.coordinator;

import static io.sluice.common.settings.SettingType.BOOLEAN;
import static io.sluice.common.settings.SettingType.BYTE_SIZE;
import static io.sluice.common.settings.SettingType.DURATION;
import static io.sluice.common.settings.SettingType.INT;
import static io.sluice.common.settings.SettingType.LONG;

import io.sluice.common.settings.Setting;
import io.sluice.common.settings.SettingType;
import io.sluice.common.settings.SettingsDeclaration;
import io.sluice.coordinator.monitor.MonitorSettings;
import io.sluice.optimizer.ReorderJoins;
import io.sluice.physical.rules.JoinSelection;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/**
 * The coordinator's settings: those a query runs with ({@link QueryConfig}; session settings, so a
 * client's {@code SET} changes them) and those of its scheduler ({@link SchedulerSettings}).
 *
 * <p>Bounds of the session settings keep one client from hurting the cluster or the coordinator:
 * at most 10000 shuffle partitions (each is a task and a file per map task), at most 1000
 * optimizer passes within at most 10 minutes, broadcasts of at most 8 GiB (every worker holds the whole input), and a
 * collected result of at most 64 GiB, fetched ahead at most 1 GiB (both held by the coordinator).
 */
public final class CoordinatorSettingsDeclaration implements SettingsDeclaration {
    public static final Setting<Boolean> OPTIMIZER_ENABLED = Setting.session("sluice.optimizer.enabled", BOOLEAN, true,
            "whether the logical rules run at all; false plans the query exactly as written (how tests check that "
                    + "optimizing never changes a result)");
    public static final Setting<Integer> OPTIMIZER_MAX_PASSES = Setting.session("sluice.optimizer.max-passes", INT, 3,
            "the logical optimizer's pass cap").between(1, 1000);
    public static final Setting<Duration> OPTIMIZER_TIMEOUT = Setting.session("sluice.optimizer.timeout", DURATION,
            Duration.ofSeconds(30), "the longest a query's logical optimization may take; past it the query fails as too "
                    + "complex (checked after each rule)").between(Duration.ofMillis(100), Duration.ofMinutes(10));
    public static final Setting<Boolean> SKIP_FAILED_RULES = Setting.session("sluice.optimizer.skip-failed-rules",
            BOOLEAN, false, "a logical rule that throws is skipped (its input plan kept) instead of failing the query");
    public static final Setting<Boolean> JOIN_REORDER = Setting.session("sluice.optimizer.join-reorder", BOOLEAN, true,
            "whether inner joins are reordered by estimated cost; false joins in the order written");
    public static final Setting<Integer> JOIN_REORDER_DP_LIMIT = Setting.session("sluice.optimizer.join-reorder.dp-limit",
            INT, ReorderJoins.DEFAULT_DP_LIMIT,
            "relations up to which join orders are enumerated exhaustively; more are ordered greedily").between(2, 16);
    public static final Setting<Integer> SHUFFLE_PARTITIONS = Setting.session("sluice.shuffle.partitions", INT, 0,
            "partitions after a shuffle; 0 is the cluster's task slots (also `sluice coordinator "
                    + "--shuffle-partitions`)").between(0, 10_000);
    public static final Setting<Long> BROADCAST_THRESHOLD = Setting.session("sluice.join.broadcast-threshold", BYTE_SIZE,
            JoinSelection.DEFAULT.broadcastThresholdBytes(),
            "bytes up to which a join input is broadcast; -1 never").between(-1L, 8L << 30);
    public static final Setting<Long> SORT_MERGE_THRESHOLD = Setting.session("sluice.join.sort-merge-threshold",
            BYTE_SIZE, JoinSelection.DEFAULT.sortMergeThresholdBytes(),
            "bytes above which even the smaller join input is not hashed and the join is sort-merge")
            .between(0L, 1L << 50);
    public static final Setting<Long> RUNTIME_FILTER_THRESHOLD = Setting.session("sluice.join.runtime-filter-threshold",
            BYTE_SIZE, JoinSelection.DEFAULT.runtimeFilterMaxBuildBytes(),
            "estimated build-side bytes up to which a partitioned hash join filters its probe side by the build "
                    + "stage's keys (Bloom + min/max) before the shuffle; -1 never").between(-1L, 8L << 30);
    public static final Setting<Boolean> RANGE_PARTITIONED_SORT = Setting.session("sluice.sort.range-partitioned",
            BOOLEAN, true, "a global ORDER BY without LIMIT range-partitions on its keys, sorts each partition and "
                    + "concatenates them in order; false sorts every row in one partition");
    public static final Setting<Long> RANGE_SORT_MIN_ROWS = Setting.session("sluice.sort.range-partitioned.min-rows",
            LONG, 500_000L, "a global ORDER BY whose input is estimated at fewer rows sorts in one partition (the "
                    + "sampling run and extra stage cost more than they save); 0 always range-partitions")
            .between(0L, 1_000_000_000_000L);
    public static final Setting<Long> RESULT_MAX_BYTES = Setting.session("sluice.result.max-bytes", BYTE_SIZE, 1L << 30,
            "the most Arrow bytes a collected result (`collect()`, `sluice sql`, HTTP without `X-Sluice-Result: "
                    + "stream`) may have; over it the query fails. Streamed results are not capped")
            .between(1L, 64L << 30);
    public static final Setting<Long> RESULT_BUFFER_BYTES = Setting.session("sluice.result.buffer-bytes", BYTE_SIZE,
            16L << 20, "Arrow bytes the coordinator fetches ahead of a client reading a result (plus the block it is "
                    + "handing over)").between(0L, 1L << 30);

    public static final Setting<Duration> TASK_TIMEOUT = Setting.node("sluice.task.timeout", DURATION,
            Duration.ofMinutes(15), "an attempt running longer is given up (its worker told to stop it) and retried; "
                    + "counts as a failure of its worker; `0` never. Under the job deadline (`sluice.job.timeout`), so a "
                    + "hung attempt is retried before the job gives up").atLeast(Duration.ZERO);
    public static final Setting<Integer> TASK_MAX_ATTEMPTS = Setting.node("sluice.task.max-attempts", INT, 4,
            "attempts of one task, the first included, before its job fails with the last attempt's error")
            .atLeast(1);
    public static final Setting<Integer> STAGE_MAX_ATTEMPTS = Setting.node("sluice.stage.max-attempts", INT, 4,
            "submissions of one stage (a stage runs again when its input or output was lost) before its job fails")
            .atLeast(1);
    public static final Setting<Integer> EXCLUDE_MAX_FAILURES = Setting.node("sluice.exclude.max-failures", INT, 2,
            "failed attempts (timeouts included; user errors, lost map outputs and cancellations not) within "
                    + "`sluice.exclude.timeout` after which a worker gets no new tasks").atLeast(1);
    public static final Setting<Duration> EXCLUDE_TIMEOUT = Setting.node("sluice.exclude.timeout", DURATION,
            Duration.ofMinutes(10), "how long a worker stays excluded, and the window its failures are counted in; "
                    + "while every worker is excluded all are used").atLeast(Duration.ZERO);
    public static final Setting<SchedulingMode> SCHEDULER_MODE = Setting.node("sluice.scheduler.mode",
            SettingType.enumeration(SchedulingMode.class), SchedulingMode.FIFO,
            "`fifo`: queued tasks in arrival order (a job's tasks before a later job's); `fair`: the job with the "
                    + "fewest attempts running goes next, so a short query behind a long one starts at the next free slot");

    public static final Setting<Duration> LOCALITY_WAIT = Setting.node("sluice.locality.wait", DURATION,
            Duration.ofSeconds(3), "how long a task whose input lies on some hosts (HDFS blocks) waits for a free slot "
                    + "on a worker there before it takes any slot; `0` never waits. Tasks without such hosts never wait")
            .between(Duration.ZERO, Duration.ofMinutes(10));

    public static final Setting<Duration> JOB_TIMEOUT = Setting.node("sluice.job.timeout", DURATION,
            Duration.ofMinutes(30), "a job running longer is cancelled and fails; an HTTP request may wait this long "
                    + "plus a minute for its result").atLeast(Duration.ofSeconds(1));

    public static final Setting<Integer> MAX_CONCURRENT_QUERIES = Setting.node("sluice.coordinator.max-concurrent-queries",
            INT, 16, "HTTP requests running queries at once; more wait, then are told busy (503)").atLeast(1);
    public static final Setting<Duration> UI_SESSION_TIMEOUT = Setting.node("sluice.ui.session-timeout", DURATION,
            Duration.ofHours(12), "how long a web UI login (its session cookie) lasts; then the browser is asked "
                    + "for the secret again").between(Duration.ofMinutes(1), Duration.ofDays(30));

    /** The settings {@link SchedulerSettings} reads. */
    static final List<Setting<?>> SCHEDULER = List.of(TASK_TIMEOUT, TASK_MAX_ATTEMPTS, STAGE_MAX_ATTEMPTS,
            EXCLUDE_MAX_FAILURES, EXCLUDE_TIMEOUT, SCHEDULER_MODE, LOCALITY_WAIT);

    @Override
    public List<Setting<?>> settings() {
        return Stream.concat(Stream.of(OPTIMIZER_ENABLED, OPTIMIZER_MAX_PASSES, OPTIMIZER_TIMEOUT, SKIP_FAILED_RULES, JOIN_REORDER,
                JOIN_REORDER_DP_LIMIT, SHUFFLE_PARTITIONS, BROADCAST_THRESHOLD, SORT_MERGE_THRESHOLD,
                RUNTIME_FILTER_THRESHOLD, RANGE_PARTITIONED_SORT, RANGE_SORT_MIN_ROWS, RESULT_MAX_BYTES,
                RESULT_BUFFER_BYTES, JOB_TIMEOUT, MAX_CONCURRENT_QUERIES, UI_SESSION_TIMEOUT), Stream.concat(SCHEDULER.stream(),
                MonitorSettings.ALL.stream())).toList();
    }
}
