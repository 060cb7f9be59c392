package io.sluice.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Splitting follows the dialect a script switches to, however the switch is written. */
class StatementSplitterTest {
    private static List<String> split(String script, SqlDialect dialect) {
        return StatementSplitter.segments(script, dialect).stream()
                .map(s -> script.substring(s.start(), s.end()).strip()).toList();
    }

    @Test
    void aSetOfTheDialectChangesHowLaterStringsEnd() {
        String afterSwitch = "SELECT 'it\\'s; one'";
        for (String set : List.of("SET sluice.sql.dialect = spark", "set sluice.sql.dialect TO 'spark'",
                "SET sluice.sql.dialect = \"spark\"", "-- to Spark's strings\nSET sluice.sql.dialect = spark",
                "/* switch */ SET sluice.sql.dialect=spark")) {
            assertThat(split(set + ";\n" + afterSwitch + "; SELECT 2", SqlDialect.ANSI)).as(set)
                    .containsExactly(set, afterSwitch, "SELECT 2");
        }
    }

    @Test
    void withoutASwitchTheStartingDialectHolds() {
        // in the ansi dialect a backslash does not escape: the string ends after it
        assertThat(split("SELECT 'a\\'; SELECT 2", SqlDialect.ANSI)).containsExactly("SELECT 'a\\'", "SELECT 2");
        assertThat(split("SELECT 'a\\'; SELECT 2'", SqlDialect.SPARK)).containsExactly("SELECT 'a\\'; SELECT 2'");
    }
}
