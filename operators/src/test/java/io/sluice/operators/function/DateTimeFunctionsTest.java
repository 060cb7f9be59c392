package io.sluice.operators.function;

import static io.sluice.operators.function.FunctionTesting.call;
import static io.sluice.operators.function.FunctionTesting.eval;
import static io.sluice.operators.function.FunctionTesting.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.function.CallContext;
import io.sluice.logical.function.FunctionLibrary;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Spark's date and time functions, with patterns, month ends, and the session time zone. */
class DateTimeFunctionsTest {
    private static final LocalDate D = LocalDate.of(2024, 1, 31);

    @Test
    void parsingAndFormattingWithPatterns() {
        assertThat(eval("to_date", "2016-12-31")).isEqualTo(LocalDate.of(2016, 12, 31));
        assertThat(eval("to_date", "31/12/2016", "dd/MM/yyyy")).isEqualTo(LocalDate.of(2016, 12, 31));
        assertThat(eval("to_timestamp", "2016-12-31 00:12:00")).isEqualTo(LocalDateTime.of(2016, 12, 31, 0, 12));
        assertThat(eval("to_timestamp", "2016-12-31", "yyyy-MM-dd")).isEqualTo(LocalDateTime.of(2016, 12, 31, 0, 0));
        assertThat(eval("to_timestamp", "12/31/2016 01:02:03 PM", "MM/dd/yyyy hh:mm:ss a"))
                .isEqualTo(LocalDateTime.of(2016, 12, 31, 13, 2, 3));
        assertThat(eval("date_format", D, "yyyy/MM/dd EEE")).isEqualTo("2024/01/31 Wed");
        assertThat(eval("date_format", call("to_timestamp", "2024-01-31 13:05:09.123"), "HH:mm:ss.SSS"))
                .isEqualTo("13:05:09.123");
        assertThat(eval("to_date", null, "yyyy")).isNull();
    }

    @Test
    void badTextAndPatternsAreNamed() {
        assertThatThrownBy(() -> eval("to_date", "2016-02-30", "yyyy-MM-dd")).isInstanceOf(SluiceException.class)
                .hasMessage("to_date(): cannot parse '2016-02-30' with pattern 'yyyy-MM-dd'");
        assertThatThrownBy(() -> call("date_format", D, "yyyy-MM-dd bb").type(new io.sluice.common.types.Schema(List.of())))
                .isInstanceOf(SluiceException.class).hasMessageStartingWith("date_format(): invalid datetime pattern 'yyyy-MM-dd bb'");
        assertThatThrownBy(() -> eval("next_day", D, "Funday")).isInstanceOf(SluiceException.class)
                .hasMessageStartingWith("next_day(): 'Funday' is not a day of the week");
    }

    @Test
    void dayArithmetic() {
        assertThat(eval("datediff", "2009-07-31", "2009-07-30")).isEqualTo(1);
        assertThat(eval("datediff", LocalDate.of(2009, 7, 30), LocalDate.of(2009, 7, 31))).isEqualTo(-1);
        assertThat(eval("add_months", D, 1)).isEqualTo(LocalDate.of(2024, 2, 29));
        assertThat(eval("add_months", D, -13)).isEqualTo(LocalDate.of(2022, 12, 31));
        assertThat(eval("date_add", D, 1)).isEqualTo(LocalDate.of(2024, 2, 1));
        assertThat(eval("date_sub", "2024-03-01", 1)).isEqualTo(LocalDate.of(2024, 2, 29));
        assertThat(eval("last_day", "2009-01-12")).isEqualTo(LocalDate.of(2009, 1, 31));
        assertThat(eval("last_day", LocalDate.of(2024, 2, 3))).isEqualTo(LocalDate.of(2024, 2, 29));
        assertThat(eval("next_day", "2015-01-14", "TU")).isEqualTo(LocalDate.of(2015, 1, 20));
        assertThat(eval("next_day", "2015-01-13", "tuesday")).isEqualTo(LocalDate.of(2015, 1, 20));
        assertThat(eval("months_between", "1997-02-28 10:30:00", "1996-10-30")).isEqualTo(3.94959677);
        assertThat(eval("months_between", "1997-02-28 10:30:00", "1996-10-30", false)).isEqualTo(3.9495967741935485);
        assertThat(eval("months_between", "2024-02-29", "2024-01-31")).isEqualTo(1.0);
    }

    @Test
    void unixTimesReadTheSessionTimeZone() {
        assertThat(eval("unix_timestamp", "2016-04-08", "yyyy-MM-dd")).isEqualTo(1460073600L);
        assertThat(eval("from_unixtime", 0, "yyyy-MM-dd HH:mm:ss")).isEqualTo("1970-01-01 00:00:00");
        assertThat(eval("from_unixtime", 1460073600L)).isEqualTo("2016-04-08 00:00:00");
        FunctionLibrary paris = FunctionLibrary.builtIn().withContext(new CallContext("Europe/Paris",
                Instant.parse("2024-06-30T23:30:00Z")));
        Expr local = paris.call("unix_timestamp", List.of(FunctionTesting.lit("2016-04-08 02:00:00")));
        assertThat(value(local)).isEqualTo(1460073600L);
        assertThat(value(paris.call("from_unixtime", List.of(FunctionTesting.lit(0)))))
                .isEqualTo("1970-01-01 01:00:00");
        assertThat(value(paris.call("current_date", List.of()))).isEqualTo(LocalDate.of(2024, 7, 1));
        assertThat(value(paris.call("current_timestamp", List.of()))).isEqualTo(LocalDateTime.of(2024, 7, 1, 1, 30));
        assertThatThrownBy(() -> new CallContext("Mars/Base", Instant.EPOCH)).isInstanceOf(SluiceException.class)
                .hasMessageStartingWith("unknown time zone 'Mars/Base'");
    }
}
