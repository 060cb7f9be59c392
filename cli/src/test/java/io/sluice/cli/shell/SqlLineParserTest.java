package io.sluice.cli.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.sql.SqlDialect;
import org.jline.reader.CompletingParsedLine;
import org.jline.reader.EOFError;
import org.jline.reader.Parser.ParseContext;
import org.junit.jupiter.api.Test;

class SqlLineParserTest {
    private final SqlLineParser parser = new SqlLineParser(() -> SqlDialect.SPARK);

    @Test
    void enterBeforeTheSemicolonAsksForAnotherLine() {
        assertThatThrownBy(() -> parser.parse("SELECT 1,\n  2", 13, ParseContext.ACCEPT_LINE))
                .isInstanceOf(EOFError.class).hasMessageContaining("not ended by ';'");
        assertThatThrownBy(() -> parser.parse("SELECT ';'", 10, ParseContext.ACCEPT_LINE)).isInstanceOf(EOFError.class);
        assertThat(parser.parse("SELECT 1,\n  2;", 14, ParseContext.ACCEPT_LINE).line()).isEqualTo("SELECT 1,\n  2;");
        assertThatThrownBy(() -> parser.parse("SELECT 'it\\';", 14, ParseContext.ACCEPT_LINE))
                .as("Spark's \\' does not end the string").isInstanceOf(EOFError.class);
    }

    @Test
    void theWordCompletedIsTheIdentifierBeforeTheCursor() {
        String text = "SELECT o.tot FROM orders o";
        CompletingParsedLine line = parser.parse(text, text.indexOf(" FROM"), ParseContext.COMPLETE);
        assertThat(line.word()).isEqualTo("tot");
        assertThat(line.wordCursor()).isEqualTo(3);
        assertThat(line.rawWordCursor()).isEqualTo(3);
        assertThat(line.escape("total", true)).isEqualTo("total");
        assertThat(parser.parse("SELECT ", 7, ParseContext.COMPLETE).word()).isEmpty();
        assertThat(parser.isEscapeChar('\\')).as("a backslash is SQL text").isFalse();
    }
}
