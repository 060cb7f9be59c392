package io.sluice.cluster.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.operators.MapStatus;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MessagesTest {
    private static final MapStatus STATUS = new MapStatus("w", "127.0.0.1", 1, new long[] {1});

    @Test
    void taskDescriptionComparesPlanBytesAndValidates() {
        TaskDescription a = new TaskDescription("j", "t", 1, 2, 0, new byte[] {1, 2});
        assertThat(a).isEqualTo(new TaskDescription("j", "t", 1, 2, 0, new byte[] {1, 2}))
                .hasSameHashCodeAs(new TaskDescription("j", "t", 1, 2, 0, new byte[] {1, 2}))
                .isNotEqualTo(new TaskDescription("j", "t", 1, 2, 0, new byte[] {1, 3}))
                .isNotEqualTo(new TaskDescription("j", "t", 1, 2, 1, new byte[] {1, 2}));
        assertThat(a.toString()).contains("2 bytes");
        assertThatThrownBy(() -> new TaskDescription("j", "t", 1, -1, 0, new byte[] {1}))
                .hasMessageContaining("partition");
        assertThatThrownBy(() -> new TaskDescription("j", "t", 1, 0, 0, new byte[0])).hasMessageContaining("empty");
        assertThatThrownBy(() -> new TaskDescription(null, "t", 1, 0, 0, new byte[] {1}))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("jobId");
    }

    @Test
    void taskFinishedHoldsExactlyOneOutcome() {
        assertThat(TaskFinished.succeeded("t", "w", STATUS).succeeded()).isTrue();
        TaskFinished failed = TaskFinished.failed("t", "w", "boom", true);
        assertThat(failed.succeeded()).isFalse();
        assertThat(failed.userError()).isTrue();
        assertThatThrownBy(() -> new TaskFinished("t", "w", STATUS, "boom", false))
                .hasMessageContaining("exactly one");
        assertThatThrownBy(() -> new TaskFinished("t", "w", null, null, false)).hasMessageContaining("exactly one");
        assertThatThrownBy(() -> new TaskFinished("t", "w", STATUS, null, true)).hasMessageContaining("userError");
        TaskFinished full = TaskFinished.failedOnFullMemory("t", "w", "OutOfMemoryException").withSession("s");
        assertThat(full.memoryFull()).isTrue();
        assertThat(full.userError()).isFalse();
        assertThatThrownBy(() -> new TaskFinished("t", "w", null, "bad data", true, null, null, null, null, null, true))
                .hasMessageContaining("memoryFull");
    }

    @Test
    void mapOutputColumnsCarryOneBlockSizePerMap() {
        MapOutputColumn column = new MapOutputColumn("j-s0", 3, List.of(STATUS));
        assertThat(column.blocks()).containsExactly(STATUS);
        MapStatus whole = new MapStatus("w", "127.0.0.1", 1, new long[] {1, 2});
        assertThatThrownBy(() -> new MapOutputColumn("j-s0", 3, List.of(whole))).hasMessageContaining("one block size");
        assertThatThrownBy(() -> MapOutputs.of(List.of(whole))).hasMessageContaining("one block size");
        assertThatThrownBy(() -> new MapOutputColumn("j-s0", -1, List.of(STATUS))).hasMessageContaining("partition");
        assertThatThrownBy(() -> new MapOutputColumn("", 0, List.of(STATUS))).hasMessageContaining("shuffleId");
    }

    @Test
    void otherMessagesValidate() {
        assertThatThrownBy(() -> new WorkerRegistered("", "s")).hasMessageContaining("coordinatorId");
        assertThatThrownBy(() -> new RunTask(null, null, "s")).hasMessageContaining("task");
        assertThatThrownBy(() -> new RegisterWorker("w", null, "h", 1, 1)).hasMessageContaining("worker");
        List<String> ids = new ArrayList<>(List.of("s1"));
        RemoveShuffles remove = new RemoveShuffles(ids, "s");
        ids.add("s2");
        assertThat(remove.shuffleIds()).containsExactly("s1");
        assertThatThrownBy(() -> new RemoveShuffles(null, "s")).hasMessageContaining("shuffleIds");
        // a message in parts: at least two, each numbered below the count, with its recipient and bytes
        assertThatThrownBy(() -> new MessagePart(" ", 0, 2, null, new byte[1])).hasMessageContaining("messageId");
        assertThatThrownBy(() -> new MessagePart("m", 2, 2, null, new byte[1])).hasMessageContaining("part 2 of 2");
        assertThatThrownBy(() -> new MessagePart("m", 0, 1, null, new byte[1])).hasMessageContaining("part 0 of 1");
        assertThatThrownBy(() -> new MessagePart("m", -1, 2, null, new byte[1])).hasMessageContaining("index");
        assertThatThrownBy(() -> new MessagePart("m", 1, 2, null, new byte[1])).hasMessageContaining("recipient");
    }
}
