package io.sluice.logical.function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.logical.expr.Case;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.ScalarFunction;
import io.sluice.logical.expr.Substring;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The library's lookups and the errors a user sees for a wrong name, arity or argument type. */
class FunctionLibraryTest {
    private static final FunctionLibrary LIBRARY = FunctionLibrary.builtIn();
    private static final Schema SCHEMA = Schema.of(new Field("s", DataType.UTF8), new Field("n", DataType.INT64),
            new Field("d", DataType.DATE32), new Field("b", DataType.BOOL));

    private static Expr call(String name, Expr... args) {
        return LIBRARY.call(name, List.of(args));
    }

    @Test
    void namesAndAliasesAnyCase() {
        assertThat(call("UCASE", new Column("s"))).isEqualTo(new ScalarFunction(ScalarFunction.Function.UPPER,
                List.of(new Column("s"))));
        assertThat(call("Power", new Column("n"), Literal.of(2L))).isEqualTo(new FunctionCall("pow",
                List.of(new Column("n"), Literal.of(2L))));
        assertThat(call("every", new Column("b"))).isEqualTo(new AggregateCall(AggregateFunction.MIN, new Column("b")));
        assertThat(call("nvl", new Column("s"), Literal.of("x"))).isInstanceOf(Case.class);
        assertThat(call("substr", new Column("s"), Literal.of(2L), Literal.of(3L))).isEqualTo(new Substring(new Column("s"), 2, 3L));
        assertThat(call("substr", new Column("s"), Literal.of(0L))).isInstanceOf(FunctionCall.class);
        assertThat(LIBRARY.isAggregate("COLLECT_LIST")).isEqualTo(LIBRARY.contains("collect_list"));
        assertThat(LIBRARY.isAggregate("sum")).isTrue();
        assertThat(LIBRARY.isAggregate("upper")).isFalse();
        assertThat(LIBRARY.isAggregate("nope")).isFalse();
    }

    @Test
    void everyFunctionIsListedOnceWithItsUsage() {
        List<FunctionInfo> functions = LIBRARY.functions();
        assertThat(functions).extracting(FunctionInfo::name).doesNotHaveDuplicates().isSorted()
                .contains("regexp_extract", "date_format", "greatest", "nvl2", "count_if");
        assertThat(functions.size()).isGreaterThan(100);
        FunctionInfo lpad = LIBRARY.info("LPAD").orElseThrow();
        assertThat(lpad.usage()).isEqualTo("lpad(str, len[, pad])");
        assertThat(lpad.kind()).isEqualTo(FunctionInfo.Kind.SCALAR);
        assertThat(LIBRARY.info("power").orElseThrow().aliases()).containsExactly("power");
        assertThat(LIBRARY.info("concat_ws").orElseThrow().usage()).isEqualTo("concat_ws(sep, str, ...)");
        assertThat(functions).allMatch(f -> !f.description().isBlank() && f.usage().startsWith(f.name() + "("));
    }

    @Test
    void unknownNameSuggestsTheClosest() {
        assertThatThrownBy(() -> call("regexp_extrct", new Column("s"))).isInstanceOf(SluiceException.class)
                .hasMessage("unknown function 'regexp_extrct'; did you mean 'regexp_extract'? SHOW FUNCTIONS lists them");
        assertThatThrownBy(() -> call("frobnicate")).isInstanceOf(SluiceException.class)
                .hasMessage("unknown function 'frobnicate'; SHOW FUNCTIONS lists them");
    }

    @Test
    void wrongArityGivesTheUsage() {
        assertThatThrownBy(() -> call("lpad", new Column("s"))).isInstanceOf(SluiceException.class)
                .hasMessage("lpad() takes 2 to 3 arguments, not 1: lpad(str, len[, pad])");
        assertThatThrownBy(() -> call("greatest", new Column("n"))).isInstanceOf(SluiceException.class)
                .hasMessage("greatest() takes 2 or more arguments, not 1: greatest(expr, ...)");
        assertThatThrownBy(() -> call("current_date", new Column("n"))).isInstanceOf(SluiceException.class)
                .hasMessage("current_date() takes 0 arguments, not 1: current_date()");
    }

    @Test
    void wrongTypeNamesFunctionArgumentAndTypes() {
        assertThatThrownBy(() -> call("lpad", new Column("s"), new Column("s")).type(SCHEMA))
                .isInstanceOf(SluiceException.class)
                .hasMessage("lpad(): argument 2 (len) must be INT or BIGINT, not VARCHAR (s); usage: lpad(str, len[, pad])");
        assertThatThrownBy(() -> call("sqrt", new Column("d")).type(SCHEMA)).isInstanceOf(SluiceException.class)
                .hasMessage("sqrt(): argument 1 (expr) must be a number (INT, BIGINT, DECIMAL or DOUBLE), not DATE (d);"
                        + " usage: sqrt(expr)");
        assertThatThrownBy(() -> call("datediff", new Column("d"), new Column("n")).type(SCHEMA))
                .isInstanceOf(SluiceException.class).hasMessageStartingWith("datediff(): argument 2 (startDate) must be DATE");
        assertThat(call("lpad", new Column("n"), Literal.of(3L)).type(SCHEMA)).isEqualTo(DataType.UTF8);
        assertThat(call("split", new Column("s"), Literal.of(",")).type(SCHEMA)).isEqualTo(DataType.list(DataType.UTF8));
    }
}
