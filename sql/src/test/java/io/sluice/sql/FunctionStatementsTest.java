package io.sluice.sql;

import static io.sluice.sql.SqlTestTables.catalog;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.ScalarFunction;
import io.sluice.logical.plan.Generate;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import java.util.List;
import org.junit.jupiter.api.Test;

/** SHOW FUNCTIONS and DESCRIBE FUNCTION: the rows they plan, patterns, and an unknown name. */
class FunctionStatementsTest {
    /** The text rows a statement plans (one exploded array of constants). */
    private static List<Object> rows(String sql) {
        LogicalPlan plan = ((Statement.Query) SqlFrontEnd.parse(sql, catalog())).plan();
        if (!(plan instanceof Projection p && p.input() instanceof Generate g)) {
            return List.of();
        }
        return ((ScalarFunction) g.generator()).args().stream().map(e -> ((Literal) e).value()).toList();
    }

    @Test
    void showFunctionsListsNamesAndAliasesSorted() {
        List<Object> all = rows("SHOW FUNCTIONS");
        assertThat(all).contains("regexp_extract", "ucase", "upper", "date_format")
                .isSortedAccordingTo((a, b) -> ((String) a).compareTo((String) b));
        assertThat(all.size()).isGreaterThan(120);
        assertThat(rows("show system functions like 'date_*'")).contains("date_add", "date_format", "date_sub", "date_trunc")
                .allMatch(n -> ((String) n).startsWith("date_"));
        assertThat(rows("SHOW FUNCTIONS 'lpad|rpad'")).containsExactly("lpad", "rpad");
        assertThat(rows("SHOW FUNCTIONS LIKE 'LOG%'")).containsExactly("log", "log10", "log2");
        assertThat(SqlFrontEnd.parse("SHOW FUNCTIONS LIKE 'nothing_like_it'", catalog()).toString()).contains("EmptyRelation");
    }

    @Test
    void describeFunctionGivesUsageAndAliases() {
        assertThat(rows("DESCRIBE FUNCTION ucase")).containsExactly("Function: upper", "Aliases: ucase", "Kind: scalar",
                "Usage: upper(str) - The string in upper case.");
        assertThat(rows("desc function extended `lpad`")).contains("Usage: lpad(str, len[, pad]) - "
                + "str left-padded with pad (default a space) to len characters, or cut to len.");
        assertThat(rows("DESCRIBE FUNCTION count_if")).contains("Kind: aggregate");
        assertThatThrownBy(() -> SqlFrontEnd.parse("DESCRIBE FUNCTION lpadd", catalog())).isInstanceOf(SluiceException.class)
                .hasMessage("unknown function 'lpadd'; did you mean 'lpad'? SHOW FUNCTIONS lists them");
    }
}
