package io.sluice.coordinator;

import static io.sluice.coordinator.CoordinatorSettingsDeclaration.EXCLUDE_MAX_FAILURES;
import static io.sluice.coordinator.CoordinatorSettingsDeclaration.EXCLUDE_TIMEOUT;
import static io.sluice.coordinator.CoordinatorSettingsDeclaration.LOCALITY_WAIT;
import static io.sluice.coordinator.CoordinatorSettingsDeclaration.SCHEDULER;
import static io.sluice.coordinator.CoordinatorSettingsDeclaration.SCHEDULER_MODE;
import static io.sluice.coordinator.CoordinatorSettingsDeclaration.STAGE_MAX_ATTEMPTS;
import static io.sluice.coordinator.CoordinatorSettingsDeclaration.TASK_MAX_ATTEMPTS;
import static io.sluice.coordinator.CoordinatorSettingsDeclaration.TASK_TIMEOUT;
import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.settings.Setting;
import io.sluice.common.settings.Settings;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * How the coordinator treats failing and slow tasks, on the model of Spark's task set manager and
 * exclude-on-failure: a typed view of the scheduler settings of
 * {@link CoordinatorSettingsDeclaration} (task timeout and attempts, stage attempts, exclusion of
 * failing workers, the {@link SchedulingMode} and the locality wait of {@link TaskPlacement}), where their names, defaults and bounds are declared.
 */
public record SchedulerSettings(Duration taskTimeout, int taskMaxAttempts, int stageMaxAttempts,
        int excludeMaxFailures, Duration excludeTimeout, SchedulingMode mode, Duration localityWait) {
    public SchedulerSettings {
        TASK_TIMEOUT.check(requireNonNull(taskTimeout, "taskTimeout is null"));
        TASK_MAX_ATTEMPTS.check(taskMaxAttempts);
        STAGE_MAX_ATTEMPTS.check(stageMaxAttempts);
        EXCLUDE_MAX_FAILURES.check(excludeMaxFailures);
        EXCLUDE_TIMEOUT.check(requireNonNull(excludeTimeout, "excludeTimeout is null"));
        requireNonNull(mode, "mode is null");
        LOCALITY_WAIT.check(requireNonNull(localityWait, "localityWait is null"));
    }

    public static SchedulerSettings defaults() {
        return from(Settings.defaults());
    }

    /** The scheduler settings of {@code settings}. */
    public static SchedulerSettings from(Settings settings) {
        return new SchedulerSettings(settings.get(TASK_TIMEOUT), settings.get(TASK_MAX_ATTEMPTS),
                settings.get(STAGE_MAX_ATTEMPTS), settings.get(EXCLUDE_MAX_FAILURES), settings.get(EXCLUDE_TIMEOUT),
                settings.get(SCHEDULER_MODE), settings.get(LOCALITY_WAIT));
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

    /** These settings with one changed; an unknown name, another setting or a bad value is an error naming it. */
    public SchedulerSettings with(String name, String value) {
        Setting<?> setting = Settings.defaults().registry().setting(name);
        if (!SCHEDULER.contains(setting)) {
            throw new SluiceException(name + " is not a scheduler setting; they are " + SCHEDULER.stream()
                    .map(Setting::name).collect(Collectors.joining(", ")));
        }
        return from(toSettings().with(name, value));
    }

    private Settings toSettings() {
        return Settings.defaults().with(TASK_TIMEOUT, taskTimeout).with(TASK_MAX_ATTEMPTS, taskMaxAttempts)
                .with(STAGE_MAX_ATTEMPTS, stageMaxAttempts).with(EXCLUDE_MAX_FAILURES, excludeMaxFailures)
                .with(EXCLUDE_TIMEOUT, excludeTimeout).with(SCHEDULER_MODE, mode).with(LOCALITY_WAIT, localityWait);
    }
}
