package io.sluice.operators.function;

import static io.sluice.operators.function.FunctionTesting.call;
import static io.sluice.operators.function.FunctionTesting.eval;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Column;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Spark's string functions: values Spark 4.2 gives, NULLs, empty strings, Unicode, bad patterns. */
class StringFunctionsTest {
    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void closeAllocator() {
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    @Test
    void regularExpressions() {
        assertThat(eval("regexp_extract", "100-200", "(\\d+)-(\\d+)", 1)).isEqualTo("100");
        assertThat(eval("regexp_extract", "100-200", "(\\d+)-(\\d+)", 2)).isEqualTo("200");
        assertThat(eval("regexp_extract", "100-200", "(\\d+)-(\\d+)")).isEqualTo("100");
        assertThat(eval("regexp_extract", "foo", "(\\d+)", 1)).isEqualTo("");
        assertThat(eval("regexp_extract", "a", "(a)|(b)", 2)).isEqualTo("");
        assertThat(eval("regexp_extract", null, "(a)", 1)).isNull();
        assertThat(eval("regexp_replace", "100-200", "(\\d+)", "num")).isEqualTo("num-num");
        assertThat(eval("regexp_replace", "100-200", "(\\d+)-(\\d+)", "$2:$1")).isEqualTo("200:100");
        assertThat(eval("regexp_replace", "aaa", "a", "b", 2)).isEqualTo("abb");
        assertThat(eval("split", "oneAtwoBthreeC", "[ABC]")).isEqualTo(List.of("one", "two", "three", ""));
        assertThat(eval("split", "oneAtwoBthreeC", "[ABC]", 2)).isEqualTo(List.of("one", "twoBthreeC"));
        assertThat(eval("split", "", ",")).isEqualTo(List.of(""));
        assertThat(eval("split", "日,本", ",")).isEqualTo(List.of("日", "本"));
    }

    @Test
    void invalidRegularExpressionIsNamed() {
        assertThatThrownBy(() -> call("regexp_extract", "x", "(a", 1).type(new Schema(List.of())))
                .isInstanceOf(SluiceException.class)
                .hasMessageStartingWith("invalid regular expression '(a' (regexp_extract() argument 2): Unclosed group");
        assertThatThrownBy(() -> eval("regexp_extract", "x", "(a)", 3)).isInstanceOf(SluiceException.class)
                .hasMessage("regexp_extract(): the regular expression '(a)' has 1 group, so group index 3 is invalid");
    }

    @Test
    void padsAndPieces() {
        assertThat(eval("lpad", "hi", 5, "??")).isEqualTo("???hi");
        assertThat(eval("lpad", "hi", 1, "??")).isEqualTo("h");
        assertThat(eval("lpad", "hi", 5)).isEqualTo("   hi");
        assertThat(eval("rpad", "hi", 5, "ab")).isEqualTo("hiaba");
        assertThat(eval("rpad", "hi", -1, "ab")).isEqualTo("");
        assertThat(eval("lpad", "hi", 5, "")).isEqualTo("hi");
        assertThat(eval("lpad", "日本", 4, "語")).isEqualTo("語語日本");
        assertThat(eval("left", "Spark SQL", 3)).isEqualTo("Spa");
        assertThat(eval("right", "Spark SQL", 3)).isEqualTo("SQL");
        assertThat(eval("right", "Spark", -1)).isEqualTo("");
        assertThat(eval("substring", "Spark SQL", -3)).isEqualTo("SQL");
        assertThat(eval("substring", "Spark SQL", 0, 2)).isEqualTo("Sp");
        assertThat(eval("substring", "Spark SQL", 5, 1)).isEqualTo("k");
        assertThat(eval("repeat", "ab", 3)).isEqualTo("ababab");
        assertThat(eval("repeat", "ab", -2)).isEqualTo("");
        assertThat(eval("reverse", "Spark 𝄞")).isEqualTo("𝄞 krapS");
        assertThat(eval("initcap", "sPark sql  x")).isEqualTo("Spark Sql  X");
        assertThat(eval("translate", "AaBbCc", "abc", "123")).isEqualTo("A1B2C3");
        assertThat(eval("translate", "AaBbCc", "abc", "1")).isEqualTo("A1BC");
    }

    @Test
    void positionsCountCharacters() {
        assertThat(eval("locate", "bar", "foobarbar")).isEqualTo(4);
        assertThat(eval("locate", "bar", "foobarbar", 5)).isEqualTo(7);
        assertThat(eval("locate", "bar", "foobarbar", 0)).isEqualTo(0);
        assertThat(eval("locate", "本", "日本語")).isEqualTo(2);
        assertThat(eval("instr", "日本語", "語")).isEqualTo(3L);
        assertThat(eval("ascii", "2")).isEqualTo(50);
        assertThat(eval("ascii", "")).isEqualTo(0);
        assertThat(eval("chr", 65)).isEqualTo("A");
        assertThat(eval("chr", 321)).isEqualTo("A");
        assertThat(eval("chr", -1)).isEqualTo("");
    }

    @Test
    void digestsAndEncodings() {
        assertThat(eval("md5", "Spark")).isEqualTo("8cde774d6f7333752ed72cacddb05126");
        assertThat(eval("sha2", "Spark", 256)).isEqualTo("529bc3b07127ecb7e53a4dcf1991d9152c24537d919178022b2c42657f79a26b");
        assertThat(eval("sha2", "Spark", 7)).isNull();
        assertThat(eval("sha1", "Spark")).isEqualTo("85f5955f4b27a9a4c2aab6ffe5d7189fc298b92c");
        assertThat(eval("base64", "Spark SQL")).isEqualTo("U3BhcmsgU1FM");
        assertThat(eval("unbase64", "U3BhcmsgU1FM")).isEqualTo("Spark SQL");
        assertThat(eval("format_string", "Hello World %d %s", 100, "days")).isEqualTo("Hello World 100 days");
        assertThat(eval("concat_ws", " ", "Spark", null, "SQL")).isEqualTo("Spark SQL");
        assertThat(eval("concat_ws", null, "Spark")).isNull();
        assertThat(eval("concat_ws", ",", call("array", "a", "b"), "c")).isEqualTo("a,b,c");
    }

    @Test
    void nullRowsGiveNullInAColumn() {
        Schema schema = Schema.of(new Field("s", DataType.UTF8));
        Col strings = Col.ofStrings(new String[] {"abc", null, "", "ÄÖü"}, new boolean[] {false, true, false, false});
        VectorSchemaRoot root = new VectorSchemaRoot(schema.toArrow().getFields(), List.of(strings.write("s", allocator)), 4);
        Col out = FunctionTesting.evaluate(call("lpad", new Column("s"), 4, "*"), schema, root);
        assertThat(List.of(out.get(0), String.valueOf(out.get(1)), out.get(2), out.get(3)))
                .isEqualTo(List.of("*abc", "null", "****", "*ÄÖü"));
    }
}
