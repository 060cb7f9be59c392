package io.sluice.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Exclude-on-failure over a caller's clock: failures within the window exclude, for the window. */
class ExcludeListTest {
    @Test
    void aWorkerIsExcludedAfterItsFailuresWithinTheWindowAndReturnsAfterIt() {
        ExcludeList list = new ExcludeList(2, 1_000);
        assertThat(list.recordFailure("w1", 0)).isFalse();
        assertThat(list.isExcluded("w1", 10)).isFalse();
        assertThat(list.recordFailure("w1", 500)).isTrue();
        assertThat(list.isExcluded("w1", 600)).isTrue();
        assertThat(list.excluded(600)).containsExactly("w1");
        assertThat(list.isExcluded("w2", 600)).isFalse();
        assertThat(list.isExcluded("w1", 1_500)).isFalse();
        assertThat(list.excluded(1_500)).isEmpty();
    }

    @Test
    void failuresFurtherApartThanTheWindowDoNotAddUp() {
        ExcludeList list = new ExcludeList(2, 1_000);
        assertThat(list.recordFailure("w1", 0)).isFalse();
        assertThat(list.recordFailure("w1", 1_000)).isFalse();
        assertThat(list.recordFailure("w1", 1_999)).isTrue();
    }

    @Test
    void aWorkerThatLeftStartsClean() {
        ExcludeList list = new ExcludeList(1, 1_000);
        assertThat(list.recordFailure("w1", 0)).isTrue();
        list.forget("w1");
        assertThat(list.isExcluded("w1", 1)).isFalse();
    }

    @Test
    void aZeroWindowExcludesNobody() {
        ExcludeList list = new ExcludeList(1, 0);
        assertThat(list.recordFailure("w1", 0)).isFalse();
        assertThat(list.excluded(0)).isEmpty();
    }
}
