package io.sluice.common.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SettingFamilyTest {
    private static final Setting<String> HADOOP = Setting.family("sluice.hadoop.", Scope.NODE, "Hadoop keys");
    private static final Setting<Boolean> ENABLED = Setting.session("sluice.optimizer.enabled", SettingType.BOOLEAN, true,
            "optimize");
    private static final SettingsRegistry REGISTRY = SettingsRegistry.of(List.of(HADOOP, ENABLED));

    @Test
    void anyKeyUnderAFamilyIsASettingInItsOwnSpelling() {
        Setting<?> endpoint = REGISTRY.setting("sluice.hadoop.fs.s3a.endpoint");
        assertThat(endpoint.name()).isEqualTo("sluice.hadoop.fs.s3a.endpoint");
        assertThat(endpoint.scope()).isEqualTo(Scope.NODE);
        assertThat(REGISTRY.contains("sluice.hadoop.fs.AbstractFileSystem.gs.impl")).isTrue();
        Settings settings = Settings.defaults(REGISTRY).withAll(Map.of("sluice.hadoop.fs.s3a.endpoint", "http://127.0.0.1:9"));
        assertThat(settings.explicit()).containsEntry("sluice.hadoop.fs.s3a.endpoint", "http://127.0.0.1:9");
    }

    @Test
    void theBarePrefixIsNoSetting() {
        assertThat(REGISTRY.contains("sluice.hadoop.")).isFalse();
        assertThat(REGISTRY.contains("sluice.hadoop..x")).isFalse();
        assertThatThrownBy(() -> REGISTRY.setting("sluice.hadoop.")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("unknown setting 'sluice.hadoop.'");
        assertThat(REGISTRY.all()).contains(HADOOP);
        assertThatThrownBy(() -> Setting.family("sluice.hadoop", Scope.NODE, "x"))
                .hasMessageContaining("ends with a dot");
    }

    @Test
    void credentialsAreRedactedWhereSettingsArePrinted() {
        Settings settings = Settings.defaults(REGISTRY).withAll(Map.of(
                "sluice.hadoop.fs.s3a.secret.key", "wJalrXUtnFEMI", "sluice.hadoop.fs.s3a.access.key", "AKIA1",
                "sluice.hadoop.fs.s3a.session.token", "tok", "sluice.hadoop.fs.s3a.endpoint", "http://h:1"));
        assertThat(settings.toString()).doesNotContain("wJalrXUtnFEMI").doesNotContain("AKIA1").doesNotContain("=tok")
                .contains("http://h:1").contains(Redaction.REDACTED);
        assertThat(Redaction.isSensitive("fs.azure.account.key.acct.blob.core.windows.net")).isTrue();
        assertThat(Redaction.isSensitive("dfs.client.password")).isTrue();
        assertThat(Redaction.isSensitive("sluice.hadoop.fs.s3a.endpoint")).isFalse();
        assertThat(Redaction.isSensitive("sluice.optimizer.enabled")).isFalse();
        assertThat(Redaction.value("fs.s3a.secret.key", "s")).isEqualTo(Redaction.REDACTED);
    }
}
