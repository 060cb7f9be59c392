package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.settings.SettingsDocument;
import io.sluice.common.settings.SettingsRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md lists every setting as declared: its tables are rendered from the
 * registry of every module (cli sees them all). Run with {@value #REGENERATE}=true to rewrite it.
 */
class ConfigurationDocTest {
    static final String REGENERATE = "sluice.docs.regenerate";
    private static final String COMMAND = "mvn -o -pl cli -am verify -Dtest=ConfigurationDocTest "
            + "-Dsurefire.failIfNoSpecifiedTests=false -DfailIfNoTests=false -D" + REGENERATE + "=true";

    @Test
    void theCheckedInDocumentIsUpToDate() throws Exception {
        Path doc = Path.of("..", "docs", "configuration.md");
        String checkedIn = Files.readString(doc);
        String rendered = SettingsDocument.update(checkedIn, SettingsRegistry.loaded());
        if (Boolean.getBoolean(REGENERATE)) {
            Files.writeString(doc, rendered);
        }
        assertThat(Files.readString(doc)).as("docs/configuration.md is not what the settings declarations render; "
                + "regenerate it with: " + COMMAND).isEqualTo(rendered);
    }
}
