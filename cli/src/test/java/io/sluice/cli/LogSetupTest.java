package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The log level and file each command gets (system properties conf/logback.xml reads). */
class LogSetupTest {
    private Properties saved;

    @BeforeEach
    void clear() {
        saved = (Properties) System.getProperties().clone();
        System.clearProperty(LogSetup.LEVEL);
        System.clearProperty(LogSetup.FILE);
        System.setProperty(LogSetup.DIRECTORY, "/var/log/sluice");
    }

    @AfterEach
    void restore() {
        System.setProperties(saved);
    }

    @Test
    void clientsLogWarningsOnlyAndNoFile() {
        LogSetup.configure(new String[] {"sql", "--local", "2", "-e", "SELECT 1"});
        assertThat(System.getProperty(LogSetup.LEVEL)).isEqualTo("WARN");
        assertThat(System.getProperty(LogSetup.FILE)).isNull();
    }

    @Test
    void verboseBringsInfoBack() {
        LogSetup.configure(new String[] {"sql", "--verbose", "--local", "2", "-e", "SELECT 1"});
        assertThat(System.getProperty(LogSetup.LEVEL)).isEqualTo("INFO");
    }

    @Test
    void nodesLogInfoToAFileOfTheirOwn() {
        LogSetup.configure(new String[] {"worker", "--coordinator", "h:7355", "--id", "w/1"});
        assertThat(System.getProperty(LogSetup.LEVEL)).isEqualTo("INFO");
        assertThat(System.getProperty(LogSetup.FILE)).isEqualTo(Path.of("/var/log/sluice", "worker-w_1.log").toString());
        System.clearProperty(LogSetup.FILE);
        LogSetup.configure(new String[] {"worker", "--id=w2"});
        assertThat(System.getProperty(LogSetup.FILE)).isEqualTo(Path.of("/var/log/sluice", "worker-w2.log").toString());
        System.clearProperty(LogSetup.FILE);
        LogSetup.configure(new String[] {"coordinator", "--port", "7355"});
        assertThat(Path.of(System.getProperty(LogSetup.FILE)).getFileName().toString()).startsWith("coordinator-").endsWith(".log");
    }

    @Test
    void propertiesGivenWithDashDWin() {
        System.setProperty(LogSetup.LEVEL, "DEBUG");
        System.setProperty(LogSetup.FILE, "/tmp/mine.log");
        LogSetup.configure(new String[] {"coordinator"});
        assertThat(System.getProperty(LogSetup.LEVEL)).isEqualTo("DEBUG");
        assertThat(System.getProperty(LogSetup.FILE)).isEqualTo("/tmp/mine.log");
    }
}
