package io.sluice.datasource.parquet;

import static java.util.Objects.requireNonNull;

import io.sluice.kernels.Col;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;

/**
 * Builds a nested column's Arrow vector (StructVector, ListVector, MapVector at any depth) from
 * the levels of its leaves ({@link ParquetLeafLevels}), a node at a time over whole batches: a
 * node's slots are the leaf slots whose repetition level is at most its context's and whose
 * definition level reaches the level at which its parent has a value; a struct's validity, a
 * list's validity and offsets come from one pass over its first leaf's levels, and the leaves'
 * values go into their vectors as a whole. No per-row object is made.
 *
 * <p>Writes into vectors the caller created from the column's Arrow field, and owns nothing: the
 * caller closes the top vector (its children with it), also when this throws.
 */
final class ParquetNestedAssembler {
    private final ParquetLeafLevels[] leaves;
    private final BufferAllocator allocator;
    private int[] slots = new int[0];

    ParquetNestedAssembler(ParquetLeafLevels[] leaves, BufferAllocator allocator) {
        this.leaves = requireNonNull(leaves, "leaves is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    /**
     * Fills {@code target} with the values of {@code node} in the context of its parent: a slot
     * whose repetition level is at most {@code repetition} and whose definition level reaches
     * {@code definedAt} is one value.
     */
    void fill(ParquetNestedShape node, int repetition, int definedAt, FieldVector target) {
        ParquetLeafLevels leaf = leaves[node.firstLeaf()];
        int[] rep = leaf.repetition;
        int[] def = leaf.definition;
        int count = leaf.count();
        if (node instanceof ParquetNestedShape.Leaf) {
            int n = 0;
            if (slots.length < count) {
                slots = new int[count];
            }
            for (int t = 0; t < count; t++) {
                if (rep[t] <= repetition && def[t] >= definedAt) {
                    slots[n++] = t;
                }
            }
            Col values = leaf.values(n == count ? null : slots, n);
            try (FieldVector written = values.write(target.getName(), allocator)) {
                written.makeTransferPair(target).transfer();
            }
        } else if (node instanceof ParquetNestedShape.Struct struct) {
            List<ParquetNestedShape> children = struct.children();
            StructVector vector = (StructVector) target;
            for (int j = 0; j < children.size(); j++) {
                fill(children.get(j), repetition, definedAt, (FieldVector) vector.getChildByOrdinal(j));
            }
            int n = slotCount(rep, def, count, repetition, definedAt);
            try (ArrowBuf validity = zeroed((n + 7) >> 3)) {
                int nulls = 0;
                int i = 0;
                for (int t = 0; t < count; t++) {
                    if (rep[t] <= repetition && def[t] >= definedAt) {
                        if (def[t] >= struct.definedAt()) {
                            setBit(validity, i);
                        } else {
                            nulls++;
                        }
                        i++;
                    }
                }
                vector.loadFieldBuffers(new ArrowFieldNode(n, nulls), List.of(validity));
            }
        } else {
            ParquetNestedShape.Repeated list = (ParquetNestedShape.Repeated) node;
            ListVector vector = (ListVector) target;
            FieldVector elements = vector.getDataVector();
            if (list.map()) {
                StructVector entries = (StructVector) elements;
                fill(list.entries().get(0), list.elementRepetition(), list.elementDefinedAt(),
                        (FieldVector) entries.getChildByOrdinal(0));
                fill(list.entries().get(1), list.elementRepetition(), list.elementDefinedAt(),
                        (FieldVector) entries.getChildByOrdinal(1));
                int m = slotCount(rep, def, count, list.elementRepetition(), list.elementDefinedAt());
                try (ArrowBuf all = zeroed((m + 7) >> 3)) {
                    all.setOne(0, (m + 7) >> 3);
                    entries.loadFieldBuffers(new ArrowFieldNode(m, 0), List.of(all));
                }
            } else {
                fill(list.entries().get(0), list.elementRepetition(), list.elementDefinedAt(), elements);
            }
            fillOffsets(list, rep, def, count, repetition, definedAt, vector);
        }
    }

    private void fillOffsets(ParquetNestedShape.Repeated list, int[] rep, int[] def, int count, int repetition,
            int definedAt, ListVector vector) {
        int n = slotCount(rep, def, count, repetition, definedAt);
        try (ArrowBuf validity = zeroed((n + 7) >> 3); ArrowBuf offsets = zeroed((long) (n + 1) * Integer.BYTES)) {
            int nulls = 0;
            int i = -1;
            int elements = 0;
            int elementRepetition = list.elementRepetition();
            int elementDefinedAt = list.elementDefinedAt();
            for (int t = 0; t < count; t++) {
                if (rep[t] <= repetition && def[t] >= definedAt) {
                    i++;
                    offsets.setInt((long) i * Integer.BYTES, elements);
                    if (def[t] >= list.definedAt()) {
                        setBit(validity, i);
                    } else {
                        nulls++;
                    }
                }
                if (rep[t] <= elementRepetition && def[t] >= elementDefinedAt) {
                    elements++;
                }
            }
            offsets.setInt((long) n * Integer.BYTES, elements);
            vector.loadFieldBuffers(new ArrowFieldNode(n, nulls), List.of(validity, offsets));
        }
    }

    private static int slotCount(int[] rep, int[] def, int count, int repetition, int definedAt) {
        int n = 0;
        for (int t = 0; t < count; t++) {
            if (rep[t] <= repetition && def[t] >= definedAt) {
                n++;
            }
        }
        return n;
    }

    private ArrowBuf zeroed(long bytes) {
        ArrowBuf buffer = allocator.buffer(Math.max(bytes, 1));
        buffer.setZero(0, buffer.capacity());
        return buffer;
    }

    private static void setBit(ArrowBuf buffer, int index) {
        long at = index >> 3;
        buffer.setByte(at, buffer.getByte(at) | (1 << (index & 7)));
    }
}
