package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.common.Durations;
import io.sluice.common.SluiceException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * How the coordinator treats failing and slow tasks, on the model of Spark's task set manager and
 * exclude-on-failure:
 *
 * <ul>
 *   <li>{@code sluice.task.timeout}: an attempt running longer is given up (its worker is told to
 *       stop it) and counts as a failure; {@code 0} means never (default 15m, under the job's 30m
 *       deadline so that a hung attempt is retried before the job gives up).</li>
 *   <li>{@code sluice.task.max-attempts}: attempts of one task, the first included, before its job
 *       fails with the last attempt's error (default 4).</li>
 *   <li>{@code sluice.stage.max-attempts}: submissions of one stage, the first included; a stage
 *       is submitted again when its input or output was lost with a worker (default 4).</li>
 *   <li>{@code sluice.exclude.max-failures}: failed attempts (timeouts included; user errors, lost
 *       map outputs and cancellations not) after which a worker gets no new tasks (default 2).</li>
 *   <li>{@code sluice.exclude.timeout}: how long a worker stays excluded, and the window its
 *       failures are counted in (default 10m). While every worker is excluded, they are all used.</li>
 *   <li>{@code sluice.scheduler.mode}: {@code fifo} (default) serves queued tasks in arrival order,
 *       {@code fair} serves next the job with the fewest attempts running ({@link TaskQueue}).</li>
 * </ul>
 *
 * Durations are written as a number and a unit: {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h}.
 */
public record SchedulerSettings(Duration taskTimeout, int taskMaxAttempts, int stageMaxAttempts,
        int excludeMaxFailures, Duration excludeTimeout, SchedulingMode mode) {
    public static final List<String> NAMES = List.of("sluice.task.timeout", "sluice.task.max-attempts",
            "sluice.stage.max-attempts", "sluice.exclude.max-failures", "sluice.exclude.timeout",
            "sluice.scheduler.mode");

    public SchedulerSettings {
        requireNonNull(taskTimeout, "taskTimeout is null");
        requireNonNull(excludeTimeout, "excludeTimeout is null");
        requireNonNull(mode, "mode is null");
        if (taskTimeout.isNegative()) {
            throw new SluiceException("sluice.task.timeout must not be negative, not " + taskTimeout);
        }
        if (taskMaxAttempts < 1) {
            throw new SluiceException("sluice.task.max-attempts must be at least 1, not " + taskMaxAttempts);
        }
        if (stageMaxAttempts < 1) {
            throw new SluiceException("sluice.stage.max-attempts must be at least 1, not " + stageMaxAttempts);
        }
        if (excludeMaxFailures < 1) {
            throw new SluiceException("sluice.exclude.max-failures must be at least 1, not " + excludeMaxFailures);
        }
        if (excludeTimeout.isNegative()) {
            throw new SluiceException("sluice.exclude.timeout must not be negative, not " + excludeTimeout);
        }
    }

    public static SchedulerSettings defaults() {
        return new SchedulerSettings(Duration.ofMinutes(15), 4, 4, 2, Duration.ofMinutes(10), SchedulingMode.FIFO);
    }

    /** Whether attempts are timed out at all. */
    public boolean hasTaskTimeout() {
        return !taskTimeout.isZero();
    }

    /** These settings with every {@code name = value} of {@code values} applied, in order. */
    public SchedulerSettings with(Map<String, String> values) {
        SchedulerSettings out = this;
        for (Map.Entry<String, String> e : values.entrySet()) {
            out = out.with(e.getKey(), e.getValue());
        }
        return out;
    }

    /** These settings with one changed; an unknown name or a bad value is an error naming it. */
    public SchedulerSettings with(String name, String value) {
        return switch (name) {
            case "sluice.task.timeout" -> new SchedulerSettings(duration(name, value), taskMaxAttempts,
                    stageMaxAttempts, excludeMaxFailures, excludeTimeout, mode);
            case "sluice.task.max-attempts" -> new SchedulerSettings(taskTimeout, integer(name, value),
                    stageMaxAttempts, excludeMaxFailures, excludeTimeout, mode);
            case "sluice.stage.max-attempts" -> new SchedulerSettings(taskTimeout, taskMaxAttempts,
                    integer(name, value), excludeMaxFailures, excludeTimeout, mode);
            case "sluice.exclude.max-failures" -> new SchedulerSettings(taskTimeout, taskMaxAttempts,
                    stageMaxAttempts, integer(name, value), excludeTimeout, mode);
            case "sluice.exclude.timeout" -> new SchedulerSettings(taskTimeout, taskMaxAttempts,
                    stageMaxAttempts, excludeMaxFailures, duration(name, value), mode);
            case "sluice.scheduler.mode" -> new SchedulerSettings(taskTimeout, taskMaxAttempts,
                    stageMaxAttempts, excludeMaxFailures, excludeTimeout, SchedulingMode.parse(name, value));
            default -> throw new SluiceException("unknown scheduler setting '" + name + "'; settings: "
                    + String.join(", ", NAMES));
        };
    }

    private static int integer(String name, String value) {
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new SluiceException("setting " + name + " needs a whole number, not '" + value + "'");
        }
    }

    private static Duration duration(String name, String value) {
        return Durations.parse(name, value);
    }
}
