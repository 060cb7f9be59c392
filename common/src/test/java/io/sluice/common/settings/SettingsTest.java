package io.sluice.common.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SettingsTest {
    private enum Mode { FIFO, FAIR }

    private static final Setting<Long> PARTITIONS = Setting.session("sluice.shuffle.partitions", SettingType.LONG, 0L,
            "partitions after a shuffle").between(0L, 10_000L);
    private static final Setting<Duration> TIMEOUT = Setting.node("sluice.task.timeout", SettingType.DURATION,
            Duration.ofMinutes(15), "attempt timeout").atLeast(Duration.ZERO);
    private static final Setting<Long> BUFFER = Setting.session("sluice.result.buffer-bytes", SettingType.BYTE_SIZE,
            16L << 20, "bytes fetched ahead").between(0L, 1L << 30);
    private static final Setting<Mode> MODE = Setting.node("sluice.scheduler.mode",
            SettingType.enumeration(Mode.class), Mode.FIFO, "queue order");
    private static final Setting<Boolean> ENABLED = Setting.session("sluice.optimizer.enabled", SettingType.BOOLEAN, true,
            "optimize");
    private static final SettingsRegistry REGISTRY = SettingsRegistry.of(List.of(PARTITIONS, TIMEOUT, BUFFER, MODE, ENABLED));

    @Test
    void typesParseWhatPeopleWrite() {
        assertThat(SettingType.DURATION.parse("d", "1500ms")).isEqualTo(Duration.ofMillis(1500));
        assertThat(SettingType.DURATION.parse("d", " 2M ")).isEqualTo(Duration.ofMinutes(2));
        assertThat(SettingType.DURATION.parse("d", "0")).isEqualTo(Duration.ZERO);
        assertThat(SettingType.BYTE_SIZE.parse("b", "64m")).isEqualTo(64L << 20);
        assertThat(SettingType.BYTE_SIZE.parse("b", "512KB")).isEqualTo(512L << 10);
        assertThat(SettingType.BYTE_SIZE.parse("b", "-1")).isEqualTo(-1L);
        assertThat(SettingType.BOOLEAN.parse("f", "TRUE")).isTrue();
        assertThat(SettingType.DOUBLE.parse("x", "0.6")).isEqualTo(0.6);
        assertThat(MODE.parse("Fair")).isEqualTo(Mode.FAIR);
        assertThat(SettingType.DURATION.format(Duration.ofSeconds(90))).isEqualTo("90s");
        assertThat(SettingType.DURATION.format(Duration.ofMinutes(15))).isEqualTo("15m");
        assertThat(SettingType.BYTE_SIZE.format(10L << 20)).isEqualTo("10m");
        assertThat(SettingType.BYTE_SIZE.format(1000L)).isEqualTo("1000");
    }

    @Test
    void badTextNamesTheSettingWhatItMustBeAndTheText() {
        assertThatThrownBy(() -> TIMEOUT.parse("soon")).isInstanceOf(SluiceException.class)
                .hasMessage("sluice.task.timeout must be a duration such as 500ms, 30s, 2m or 1h, not 'soon'");
        assertThatThrownBy(() -> ENABLED.parse("yes")).hasMessage("sluice.optimizer.enabled must be true or false, not 'yes'");
        assertThatThrownBy(() -> BUFFER.parse("lots")).hasMessageContaining("a size such as 64m");
        assertThatThrownBy(() -> SettingType.BYTE_SIZE.parse("b", "99999999999t")).hasMessageContaining("'99999999999t'");
        assertThatThrownBy(() -> MODE.parse("lifo")).hasMessage("sluice.scheduler.mode must be fifo or fair, not 'lifo'")
                .isInstanceOf(SluiceException.class);
    }

    @Test
    void outOfBoundsValuesNameTheBounds() {
        assertThatThrownBy(() -> PARTITIONS.parse("100000")).isInstanceOf(SluiceException.class)
                .hasMessage("sluice.shuffle.partitions must be between 0 and 10000, not 100000");
        assertThatThrownBy(() -> TIMEOUT.parse("-1")).isInstanceOf(SluiceException.class);
        assertThatThrownBy(() -> Settings.defaults(REGISTRY).with(BUFFER, 2L << 30))
                .hasMessage("sluice.result.buffer-bytes must be between 0 and 1g, not 2g");
    }

    @Test
    void unknownNamesSuggestTheClosestSetting() {
        Settings settings = Settings.defaults(REGISTRY);
        assertThatThrownBy(() -> settings.with("sluice.task.timout", "1s")).isInstanceOf(SluiceException.class)
                .hasMessage("unknown setting 'sluice.task.timout'; did you mean 'sluice.task.timeout'?");
        assertThatThrownBy(() -> settings.with("sluice.nothing.like.it", "1"))
                .hasMessage("unknown setting 'sluice.nothing.like.it'; the settings are listed in docs/configuration.md");
    }

    @Test
    void resolvedSettingsAreImmutableAndFallBackToDefaults() {
        Settings d = Settings.defaults(REGISTRY);
        Settings s = d.withAll(Map.of("sluice.shuffle.partitions", "64", "sluice.task.timeout", "30s"));
        assertThat(d.get(PARTITIONS)).isZero();
        assertThat(s.get(PARTITIONS)).isEqualTo(64);
        assertThat(s.get(TIMEOUT)).isEqualTo(Duration.ofSeconds(30));
        assertThat(s.explicit()).containsExactly(Map.entry("sluice.shuffle.partitions", "64"),
                Map.entry("sluice.task.timeout", "30s"));
        Settings back = s.with("sluice.shuffle.partitions", "0");
        assertThat(back.get(PARTITIONS)).isZero();
        assertThat(back.isSet(PARTITIONS)).as("a default set explicitly still overrides lower sources").isTrue();
        assertThat(back.explicit()).containsEntry("sluice.shuffle.partitions", "0");
        assertThat(Settings.fromProperties(REGISTRY, Map.of("sluice.scheduler.mode", "fair")::get).get(MODE))
                .isEqualTo(Mode.FAIR);
        assertThat(TIMEOUT.environmentName()).isEqualTo("SLUICE_TASK_TIMEOUT");
    }

    @Test
    void declarationsAreChecked() {
        assertThatThrownBy(() -> SettingsRegistry.of(List.of(PARTITIONS, PARTITIONS))).hasMessageContaining("twice");
        Setting<Long> unbounded = Setting.session("sluice.x", SettingType.LONG, 1L, "x");
        assertThatThrownBy(() -> SettingsRegistry.of(List.of(unbounded))).hasMessageContaining("no bounds");
        assertThatThrownBy(() -> Setting.node("sluice.y", SettingType.LONG, 0L, "y").atLeast(1L))
                .hasMessageContaining("default out of bounds");
    }

    @Test
    void theDocumentKeepsItsProseAndRendersTheTables() {
        String doc = "# Settings\n\nIntro.\n\n" + SettingsDocument.BEGIN + "\nstale\n" + SettingsDocument.END + "\n\nOutro.\n";
        String updated = SettingsDocument.update(doc, REGISTRY);
        assertThat(updated).startsWith("# Settings\n\nIntro.\n\n").endsWith(SettingsDocument.END + "\n\nOutro.\n")
                .doesNotContain("stale")
                .contains("| `sluice.shuffle.partitions` | a whole number | `0` | between 0 and 10000 | partitions after a shuffle |")
                .contains("| `sluice.scheduler.mode` | fifo or fair | `fifo` |  | queue order |");
        assertThat(SettingsDocument.update(updated, REGISTRY)).isEqualTo(updated);
    }
}
