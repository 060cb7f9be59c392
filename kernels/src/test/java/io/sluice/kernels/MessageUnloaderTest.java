package io.sluice.kernels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.junit.jupiter.api.Test;

/** Record batch messages round-trip, and a compression refused memory midway leaves nothing allocated. */
class MessageUnloaderTest {
    private static final int ROWS = 8192;
    private static final CompressionCodec.Factory LZ4 = new CompressionCodec.Factory() {
        @Override
        public CompressionCodec createCodec(CompressionUtil.CodecType type) {
            return new Lz4FrameCodec();
        }

        @Override
        public CompressionCodec createCodec(CompressionUtil.CodecType type, int level) {
            return createCodec(type);
        }
    };

    @Test
    void aMessageReadsBackAsTheSameValues() throws Exception {
        try (RootAllocator allocator = new RootAllocator(); VectorSchemaRoot root = root(allocator)) {
            java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
            WriteChannel channel = new WriteChannel(java.nio.channels.Channels.newChannel(bytes));
            MessageSerializer.serialize(channel, root.getSchema());
            try (ArrowRecordBatch message = MessageUnloader.unload(root, new Lz4FrameCodec())) {
                MessageSerializer.serialize(channel, message);
            }
            ArrowStreamWriter.writeEndOfStream(channel, IpcOption.DEFAULT);
            try (ArrowStreamReader reader = new ArrowStreamReader(new java.io.ByteArrayInputStream(bytes.toByteArray()),
                    allocator, LZ4)) {
                assertThat(reader.loadNextBatch()).isTrue();
                assertThat(reader.getVectorSchemaRoot().getRowCount()).isEqualTo(ROWS);
                assertThat(reader.getVectorSchemaRoot().contentToTSVString()).isEqualTo(root.contentToTSVString());
                assertThat(reader.loadNextBatch()).isFalse();
            }
        }
    }

    @Test
    void aCompressionRefusedMemoryMidwayReleasesEveryBufferItMade() {
        try (RootAllocator parent = new RootAllocator();
                BufferAllocator task = parent.newChildAllocator("task", 0, Long.MAX_VALUE)) {
            try (VectorSchemaRoot root = root(task)) {
                long held = task.getAllocatedMemory();
                // room for the numbers' compressed buffers, not for the strings' 300 KB data buffer
                task.setLimit(held + 200_000);
                assertThatThrownBy(() -> MessageUnloader.unload(root, new Lz4FrameCodec()))
                        .isInstanceOf(OutOfMemoryException.class);
                assertThat(task.getAllocatedMemory()).isEqualTo(held);
                task.setLimit(Long.MAX_VALUE);
                try (ArrowRecordBatch message = MessageUnloader.unload(root, new Lz4FrameCodec())) {
                    assertThat(message.getLength()).isEqualTo(ROWS);
                }
                assertThat(task.getAllocatedMemory()).isEqualTo(held);
            }
            assertThat(task.getAllocatedMemory()).isZero();
        }
    }

    /** A long column, then a string column of 8192 distinct 37-byte values (about 300 KB). */
    private static VectorSchemaRoot root(BufferAllocator allocator) {
        BigIntVector ids = new BigIntVector("id", allocator);
        VarCharVector names = new VarCharVector("name", allocator);
        ids.allocateNew(ROWS);
        names.allocateNew(ROWS * 40L, ROWS);
        java.util.Random random = new java.util.Random(3);
        for (int i = 0; i < ROWS; i++) {
            ids.set(i, random.nextLong());
            if (i % 7 == 0) {
                names.setNull(i);
            } else {
                names.setSafe(i, ("row " + Long.toHexString(random.nextLong()) + Long.toHexString(random.nextLong()))
                        .getBytes(StandardCharsets.UTF_8));
            }
        }
        ids.setValueCount(ROWS);
        names.setValueCount(ROWS);
        return new VectorSchemaRoot(List.<FieldVector>of(ids, names));
    }
}
