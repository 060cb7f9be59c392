package io.sluice.operators.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TemporalValues.TruncUnit;
import io.sluice.common.types.TemporalValues;
import io.sluice.common.types.TextCasts;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Extract;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.temporal.IsoFields;
import java.time.temporal.TemporalAdjusters;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The allocation-free calendar arithmetic agrees with java.time over a wide range of days. */
class TemporalTest {
    @Test
    void civilConversionsMatchLocalDate() {
        for (long day = -1_000_000; day <= 1_000_000; day += 13) {
            LocalDate d = LocalDate.ofEpochDay(day);
            long packed = TemporalValues.civil(day);
            assertThat(TemporalValues.yearOf(packed)).as("%s", d).isEqualTo(d.getYear());
            assertThat(TemporalValues.monthOf(packed)).as("%s", d).isEqualTo(d.getMonthValue());
            assertThat(TemporalValues.dayOf(packed)).as("%s", d).isEqualTo(d.getDayOfMonth());
            assertThat(TemporalValues.epochDay(d.getYear(), d.getMonthValue(), d.getDayOfMonth())).isEqualTo(day);
            assertThat(TemporalValues.addMonthsToDay(day, 13)).as("%s + 13 months", d).isEqualTo(d.plusMonths(13).toEpochDay());
            assertThat(TemporalValues.addMonthsToDay(day, -1)).as("%s - 1 month", d).isEqualTo(d.minusMonths(1).toEpochDay());
            assertThat(TemporalValues.truncDay(day, TruncUnit.WEEK)).as("%s week", d)
                    .isEqualTo(d.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY)).toEpochDay());
            assertThat(TemporalValues.truncDay(day, TruncUnit.QUARTER)).as("%s quarter", d)
                    .isEqualTo(LocalDate.of(d.getYear(), (d.getMonthValue() - 1) / 3 * 3 + 1, 1).toEpochDay());
        }
    }

    @Test
    void extractMatchesJavaTime() {
        int n = 4000;
        long[] days = new long[n];
        for (int i = 0; i < n; i++) {
            days[i] = -200_000 + i * 97L;
        }
        try (var allocator = new org.apache.arrow.memory.RootAllocator()) {
            Batch batch = Batch.of(new Schema(List.of(new Field("d", DataType.DATE32))),
                    new Col[] {Col.ofLongs(DataType.DATE32, days, null)}, n, allocator);
            checkParts(batch, days);
        }
    }

    private static void checkParts(Batch batch, long[] days) {
        int n = days.length;
        Col week = ExprBinder.bind(new Extract(Extract.Field.WEEK, new Column("d")), batch.schema()).evaluate(batch);
        Col dow = ExprBinder.bind(new Extract(Extract.Field.DOW, new Column("d")), batch.schema()).evaluate(batch);
        Col doy = ExprBinder.bind(new Extract(Extract.Field.DOY, new Column("d")), batch.schema()).evaluate(batch);
        for (int i = 0; i < n; i++) {
            LocalDate d = LocalDate.ofEpochDay(days[i]);
            assertThat(week.longs[i]).as("%s", d).isEqualTo(d.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR));
            assertThat(dow.longs[i]).as("%s", d).isEqualTo(d.getDayOfWeek().getValue() % 7);
            assertThat(doy.longs[i]).as("%s", d).isEqualTo(d.getDayOfYear());
        }
    }

    @Test
    void timestampsParseFormatAndTruncate() {
        long t = TemporalValues.parseTimestamp("1969-12-31 23:59:59.25");
        assertThat(TemporalValues.toLocalDateTime(t)).isEqualTo(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 250_000_000));
        assertThat(TemporalValues.formatTimestamp(t)).isEqualTo("1969-12-31 23:59:59.25");
        assertThat(TemporalValues.formatTimestamp(TemporalValues.parseTimestamp("2024-02-29T01:02"))).isEqualTo("2024-02-29 01:02:00");
        assertThat(TemporalValues.formatTimestamp(TemporalValues.truncMicros(t, TruncUnit.HOUR))).isEqualTo("1969-12-31 23:00:00");
        assertThat(TemporalValues.formatTimestamp(TemporalValues.truncMicros(t, TruncUnit.MONTH))).isEqualTo("1969-12-01 00:00:00");
        assertThat(TemporalValues.microsToDate(t)).isEqualTo(-1);
        assertThat(TemporalValues.formatTimestamp(TemporalValues.addInterval(TemporalValues.parseTimestamp("2024-01-31 10:00:00"), 1, 1,
                TemporalValues.MICROS_PER_HOUR))).isEqualTo("2024-03-01 11:00:00");
        assertThat(TextCasts.toTimestamp("2024-01-02 03:04:05"))
                .isEqualTo(TemporalValues.parseTimestamp("2024-01-02 03:04:05"));
        assertThatThrownBy(() -> TextCasts.toDate("2024-02-30"))
                .hasMessage("cannot cast '2024-02-30' to DATE");
    }
}
