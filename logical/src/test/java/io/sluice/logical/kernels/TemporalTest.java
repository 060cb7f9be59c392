package io.sluice.logical.kernels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.kernels.Temporal.TruncUnit;
import io.sluice.kernels.Temporal;
import io.sluice.logical.expr.Extract;
import io.sluice.logical.expr.Literal;
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
            long packed = Temporal.civil(day);
            assertThat(Temporal.yearOf(packed)).as("%s", d).isEqualTo(d.getYear());
            assertThat(Temporal.monthOf(packed)).as("%s", d).isEqualTo(d.getMonthValue());
            assertThat(Temporal.dayOf(packed)).as("%s", d).isEqualTo(d.getDayOfMonth());
            assertThat(Temporal.epochDay(d.getYear(), d.getMonthValue(), d.getDayOfMonth())).isEqualTo(day);
            assertThat(Temporal.addMonthsToDay(day, 13)).as("%s + 13 months", d).isEqualTo(d.plusMonths(13).toEpochDay());
            assertThat(Temporal.addMonthsToDay(day, -1)).as("%s - 1 month", d).isEqualTo(d.minusMonths(1).toEpochDay());
            assertThat(Temporal.truncDay(day, TruncUnit.WEEK)).as("%s week", d)
                    .isEqualTo(d.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY)).toEpochDay());
            assertThat(Temporal.truncDay(day, TruncUnit.QUARTER)).as("%s quarter", d)
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
        Col week = new Extract(Extract.Field.WEEK, new io.sluice.logical.expr.Column("d")).evaluate(batch);
        Col dow = new Extract(Extract.Field.DOW, new io.sluice.logical.expr.Column("d")).evaluate(batch);
        Col doy = new Extract(Extract.Field.DOY, new io.sluice.logical.expr.Column("d")).evaluate(batch);
        for (int i = 0; i < n; i++) {
            LocalDate d = LocalDate.ofEpochDay(days[i]);
            assertThat(week.longs[i]).as("%s", d).isEqualTo(d.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR));
            assertThat(dow.longs[i]).as("%s", d).isEqualTo(d.getDayOfWeek().getValue() % 7);
            assertThat(doy.longs[i]).as("%s", d).isEqualTo(d.getDayOfYear());
        }
    }

    @Test
    void timestampsParseFormatAndTruncate() {
        long t = Temporal.parseTimestamp("1969-12-31 23:59:59.25");
        assertThat(Temporal.toLocalDateTime(t)).isEqualTo(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 250_000_000));
        assertThat(Temporal.formatTimestamp(t)).isEqualTo("1969-12-31 23:59:59.25");
        assertThat(Temporal.formatTimestamp(Temporal.parseTimestamp("2024-02-29T01:02"))).isEqualTo("2024-02-29 01:02:00");
        assertThat(Temporal.formatTimestamp(Temporal.truncMicros(t, TruncUnit.HOUR))).isEqualTo("1969-12-31 23:00:00");
        assertThat(Temporal.formatTimestamp(Temporal.truncMicros(t, TruncUnit.MONTH))).isEqualTo("1969-12-01 00:00:00");
        assertThat(Temporal.microsToDate(t)).isEqualTo(-1);
        assertThat(Temporal.formatTimestamp(Temporal.addInterval(Temporal.parseTimestamp("2024-01-31 10:00:00"), 1, 1,
                Temporal.MICROS_PER_HOUR))).isEqualTo("2024-03-01 11:00:00");
        assertThat(Literal.of("2024-01-02 03:04:05").castTo(DataType.TIMESTAMP))
                .isEqualTo(Literal.ofTimestamp(Temporal.parseTimestamp("2024-01-02 03:04:05")));
        assertThatThrownBy(() -> Literal.of("2024-02-30").castTo(DataType.DATE32))
                .hasMessage("cannot cast '2024-02-30' to DATE");
    }
}
