package io.sluice.kernels;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TypeLayout;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;

/**
 * A root's vectors as one (compressed) record batch message, as Arrow's {@code VectorUnloader}
 * makes it, but with nothing left behind when compression fails: Arrow's unloader keeps the
 * buffers it already compressed, and the reference it took on the one whose compression threw,
 * so a codec refused memory midway (a task at its budget) leaked them into the task's allocator.
 * Here every buffer made so far and the input reference are released before the failure goes on.
 * View vectors (variadic buffers) are not supported: the engine does not make them.
 */
public final class MessageUnloader {
    private MessageUnloader() {
    }

    /**
     * The record batch of {@code root}'s rows, each buffer compressed by {@code codec} and 8-byte
     * aligned; the caller closes it. {@code root} is left as it was.
     */
    public static ArrowRecordBatch unload(VectorSchemaRoot root, CompressionCodec codec) {
        requireNonNull(root, "root is null");
        requireNonNull(codec, "codec is null");
        List<ArrowFieldNode> nodes = new ArrayList<>();
        List<ArrowBuf> buffers = new ArrayList<>();
        try {
            for (FieldVector vector : root.getFieldVectors()) {
                append(vector, nodes, buffers, codec);
            }
            return new ArrowRecordBatch(root.getRowCount(), nodes, buffers, CompressionUtil.createBodyCompression(codec),
                    List.of(), true, false);
        } catch (RuntimeException | Error e) {
            for (ArrowBuf buffer : buffers) {
                buffer.close();
            }
            throw e;
        }
    }

    private static void append(FieldVector vector, List<ArrowFieldNode> nodes, List<ArrowBuf> buffers,
            CompressionCodec codec) {
        nodes.add(new ArrowFieldNode(vector.getValueCount(), vector.getNullCount()));
        List<ArrowBuf> own = vector.getFieldBuffers();
        int expected = TypeLayout.getTypeBufferCount(vector.getField().getType());
        if (own.size() != expected) {
            throw new IllegalArgumentException("vector " + vector.getField() + " of " + vector.getClass().getSimpleName()
                    + " has " + own.size() + " buffers where its type has " + expected);
        }
        for (ArrowBuf buffer : own) {
            // compress() takes over one reference: ours, released here if it throws before it could
            buffer.getReferenceManager().retain();
            ArrowBuf out;
            try {
                out = codec.compress(vector.getAllocator(), buffer);
            } catch (RuntimeException | Error e) {
                buffer.getReferenceManager().release();
                throw e;
            }
            buffers.add(out);
        }
        for (FieldVector child : vector.getChildrenFromFields()) {
            append(child, nodes, buffers, codec);
        }
    }
}
