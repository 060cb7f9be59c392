package io.sluice.coordinator.scheduler;

import static java.util.Objects.requireNonNull;

import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.Partitioning;
import io.sluice.shuffle.ShuffleReaderExec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The shuffle partitions one task is expected to read, for the dispatcher to send their block
 * locations with the task ({@link MapOutputTracker#columns}), and how many bytes of locations its
 * task message may carry ({@code maxBytes}; what does not fit is asked for by the task). A guess, never a
 * promise: a reader that reads another partition asks the coordinator as it would without it.
 */
public record ShuffleReads(List<Read> reads, int maxBytes) {
    /** Reads nothing known in advance: every reader asks. */
    public static final ShuffleReads NONE = new ShuffleReads(List.of(), 0);

    /** Reduce partition {@code partition} of shuffle {@code shuffleId}. */
    public record Read(String shuffleId, int partition) {
        public Read {
            requireNonNull(shuffleId, "shuffleId is null");
            if (partition < 0) {
                throw new IllegalArgumentException("negative partition " + partition + " of shuffle " + shuffleId);
            }
        }
    }

    public ShuffleReads {
        reads = List.copyOf(requireNonNull(reads, "reads is null"));
        if (maxBytes < 0) {
            throw new IllegalArgumentException("negative maxBytes " + maxBytes);
        }
    }

    /** The shuffle readers of a stage plan that ask where their blocks are, each shuffle once, for {@link #forPartition}. */
    public static List<ShuffleReaderExec> readersOf(ExecutionPlan plan) {
        List<ShuffleReaderExec> readers = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        collect(plan, readers, seen);
        return readers;
    }

    private static void collect(ExecutionPlan node, List<ShuffleReaderExec> readers, Set<String> seen) {
        // a reader with its outputs bound into the plan asks no one
        if (node instanceof ShuffleReaderExec reader && reader.mapOutputs().isEmpty() && seen.add(reader.shuffleId())) {
            readers.add(reader);
        }
        for (ExecutionPlan child : node.children()) {
            collect(child, readers, seen);
        }
    }

    /**
     * What task {@code partition} of a stage with {@code readers} reads when, as nearly every stage
     * does, it reads partition {@code partition} of each shuffle that has one, and block 0 of a
     * broadcast. An operator that maps partitions otherwise (a union of several readers) makes its
     * readers ask.
     */
    public static ShuffleReads forPartition(List<ShuffleReaderExec> readers, int partition, int maxBytes) {
        List<Read> reads = new ArrayList<>(readers.size());
        for (ShuffleReaderExec reader : readers) {
            if (reader.partitioning() instanceof Partitioning.Broadcast) {
                reads.add(new Read(reader.shuffleId(), 0));
            } else if (partition < reader.partitioning().partitionCount()) {
                reads.add(new Read(reader.shuffleId(), partition));
            }
        }
        return reads.isEmpty() ? NONE : new ShuffleReads(reads, maxBytes);
    }
}
