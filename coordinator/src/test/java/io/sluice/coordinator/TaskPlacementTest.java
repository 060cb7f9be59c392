package io.sluice.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.coordinator.TaskPlacement.Slot;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TaskPlacementTest {
    private static final TaskPlacement PLACEMENT = new TaskPlacement(Duration.ofSeconds(3));
    private static final Set<String> LIVE = Set.of("h1", "h2", "h3");

    private static Slot healthy(String host) {
        return new Slot(host, true, true);
    }

    @Test
    void aTaskWithoutHostsTakesTheFirstHealthySlot() {
        assertThat(PLACEMENT.choose(List.of(), 0, List.of(healthy("h1"), healthy("h2")), LIVE)).isZero();
        assertThat(PLACEMENT.choose(List.of(), 0, List.of(new Slot("h1", false, true), healthy("h2")), LIVE)).isEqualTo(1);
    }

    @Test
    void aTaskTakesASlotOnOneOfItsHostsOverAnEarlierOne() {
        assertThat(PLACEMENT.choose(List.of("h3", "h2"), 0, List.of(healthy("h1"), healthy("h2")), LIVE)).isEqualTo(1);
    }

    @Test
    void aTaskWaitsForItsHostsWithinTheLocalityWaitThenTakesAnySlot() {
        List<Slot> elsewhere = List.of(healthy("h1"));
        assertThat(PLACEMENT.choose(List.of("h2"), 0, elsewhere, LIVE)).isEqualTo(TaskPlacement.NONE);
        assertThat(PLACEMENT.choose(List.of("h2"), 2_999, elsewhere, LIVE)).isEqualTo(TaskPlacement.NONE);
        assertThat(PLACEMENT.remainingWait(2_999)).isEqualTo(1);
        assertThat(PLACEMENT.choose(List.of("h2"), 3_000, elsewhere, LIVE)).isZero();
        assertThat(PLACEMENT.remainingWait(3_000)).isZero();
    }

    @Test
    void aTaskDoesNotWaitForHostsNoWorkerRunsOn() {
        assertThat(PLACEMENT.waitsForLocality(List.of("datanode7"), 0, LIVE)).isFalse();
        assertThat(PLACEMENT.choose(List.of("datanode7"), 0, List.of(healthy("h1")), LIVE)).isZero();
    }

    @Test
    void aZeroWaitNeverHoldsATaskBack() {
        TaskPlacement noWait = new TaskPlacement(Duration.ZERO);
        assertThat(noWait.choose(List.of("h2"), 0, List.of(healthy("h1")), LIVE)).isZero();
        assertThat(noWait.choose(List.of("h2"), 0, List.of(healthy("h1"), healthy("h2")), LIVE)).isEqualTo(1);
    }

    @Test
    void aLocalWorkerTheTaskFailedOnIsNotPreferred() {
        List<Slot> slots = List.of(new Slot("h2", false, true), healthy("h1"));
        assertThat(PLACEMENT.choose(List.of("h2"), 0, slots, LIVE)).isEqualTo(TaskPlacement.NONE);
        assertThat(PLACEMENT.choose(List.of("h2"), 5_000, slots, LIVE)).isEqualTo(1);
    }

    @Test
    void withNoHealthySlotATaskTakesAnAllowedOneButNeverAnExcludedOne() {
        assertThat(PLACEMENT.choose(List.of(), 0, List.of(new Slot("h1", false, false), new Slot("h2", false, true)),
                LIVE)).isEqualTo(1);
        assertThat(PLACEMENT.choose(List.of(), 0, List.of(new Slot("h1", false, false)), LIVE))
                .isEqualTo(TaskPlacement.NONE);
    }

    @Test
    void noFreeSlotIsNoChoice() {
        assertThat(PLACEMENT.choose(List.of("h1"), 10_000, List.of(), LIVE)).isEqualTo(TaskPlacement.NONE);
        assertThat(PLACEMENT.choose(List.of(), 0, List.of(), LIVE)).isEqualTo(TaskPlacement.NONE);
    }
}
