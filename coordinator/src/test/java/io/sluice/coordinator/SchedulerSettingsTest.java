package io.sluice.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SchedulerSettingsTest {
    @Test
    void defaultsAreSparksAttemptCountsAndATimeoutUnderTheJobDeadline() {
        SchedulerSettings d = SchedulerSettings.defaults();
        assertThat(d.taskMaxAttempts()).isEqualTo(4);
        assertThat(d.stageMaxAttempts()).isEqualTo(4);
        assertThat(d.taskTimeout()).isLessThan(CoordinatorSettings.defaults("127.0.0.1", 0, -1).jobTimeout());
    }

    @Test
    void settingsAreChangedByName() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("sluice.task.timeout", "1500ms");
        values.put("sluice.task.max-attempts", "2");
        values.put("sluice.stage.max-attempts", "3");
        values.put("sluice.exclude.max-failures", "5");
        values.put("sluice.exclude.timeout", "2m");
        values.put("sluice.scheduler.mode", "FAIR");
        values.put("sluice.locality.wait", "1s");
        SchedulerSettings s = SchedulerSettings.defaults().with(values);
        assertThat(s).isEqualTo(new SchedulerSettings(Duration.ofMillis(1500), 2, 3, 5, Duration.ofMinutes(2),
                SchedulingMode.FAIR, Duration.ofSeconds(1)));
        assertThat(s.with("sluice.task.timeout", "0").hasTaskTimeout()).isFalse();
    }

    @Test
    void badNamesAndValuesAreNamedInTheError() {
        SchedulerSettings d = SchedulerSettings.defaults();
        assertThatThrownBy(() -> d.with("sluice.task.timout", "1s")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("'sluice.task.timout'").hasMessageContaining("sluice.task.timeout");
        assertThatThrownBy(() -> d.with("sluice.task.timeout", "soon")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("sluice.task.timeout").hasMessageContaining("'soon'");
        assertThatThrownBy(() -> d.with("sluice.task.max-attempts", "0")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("at least 1");
        assertThatThrownBy(() -> d.with("sluice.scheduler.mode", "lifo")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("fifo or fair, not 'lifo'");
    }
}
