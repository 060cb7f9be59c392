package io.sluice.datasource.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.types.Schema;
import io.sluice.datasource.FileFormats;
import io.sluice.datasource.SourceTestSupport;
import io.sluice.datasource.file.FormatReader;
import io.sluice.logical.source.FileFormat;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputDecompressor;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopCodecs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xerial.snappy.Snappy;

/**
 * Snappy pages are decompressed by snappy-java into arrays of their own, from heap or direct
 * buffers; a page whose length disagrees with its header is refused; files of every codec DuckDB
 * writes read as DuckDB reads them.
 */
class PageCodecsTest {
    @TempDir
    Path dir;

    private final BytesInputDecompressor snappy = new PageCodecs(HadoopCodecs.newFactory(0))
            .getDecompressor(CompressionCodecName.SNAPPY);

    @Test
    void snappyPagesDecompressFromHeapAndDirectBuffers() throws Exception {
        byte[] page = new byte[70_000];
        Random random = new Random(3);
        for (int i = 0; i < page.length; i++) {
            page[i] = (byte) (random.nextInt(4) == 0 ? random.nextInt() : i / 100); // compressible, not trivially
        }
        byte[] compressed = Snappy.compress(page);
        // a slice in the middle of a larger array, as a column chunk's pages are
        byte[] chunk = new byte[compressed.length + 20];
        System.arraycopy(compressed, 0, chunk, 7, compressed.length);
        BytesInput heap = BytesInput.from(ByteBuffer.wrap(chunk, 7, compressed.length).slice());
        assertThat(snappy.decompress(heap, page.length).toByteArray()).isEqualTo(page);

        ByteBuffer direct = ByteBuffer.allocateDirect(compressed.length);
        direct.put(compressed).flip();
        assertThat(snappy.decompress(BytesInput.from(direct), page.length).toByteArray()).isEqualTo(page);

        ByteBuffer input = ByteBuffer.allocate(compressed.length + 5);
        input.put(compressed).put(new byte[5]).flip();
        ByteBuffer output = ByteBuffer.allocate(page.length);
        snappy.decompress(input, compressed.length, output, page.length);
        assertThat(output.array()).isEqualTo(page);
        assertThat(input.position()).isZero();
    }

    @Test
    void aPageWhoseLengthDisagreesWithItsHeaderIsRefusedWhenRead() throws Exception {
        byte[] page = new byte[1000];
        Arrays.fill(page, (byte) 5);
        byte[] compressed = Snappy.compress(page);
        BytesInput shorter = snappy.decompress(BytesInput.from(compressed), 999);
        assertThatThrownBy(shorter::toByteArray)
                .isInstanceOf(IOException.class).hasMessageContaining("holds 1000 bytes where its header says 999");
        assertThatThrownBy(() -> snappy.decompress(BytesInput.from(compressed), 1001).toByteArray())
                .isInstanceOf(IOException.class).hasMessageContaining("holds 1000 bytes where its header says 1001");
        byte[] garbage = compressed.clone();
        Arrays.fill(garbage, 2, garbage.length, (byte) 0xFF);
        assertThatThrownBy(() -> snappy.decompress(BytesInput.from(garbage), 1000).toByteArray())
                .isInstanceOf(IOException.class);
    }

    /** A page is decompressed when first read: one the decoder passes over costs nothing, and is never checked. */
    @Test
    void aPageIsDecompressedOnlyWhenRead() throws Exception {
        byte[] garbage = new byte[100];
        Arrays.fill(garbage, (byte) 0xFF);
        BytesInput unread = snappy.decompress(BytesInput.from(garbage), 5000);
        assertThat(unread.size()).isEqualTo(5000);
        assertThatThrownBy(unread::toByteArray).isInstanceOf(IOException.class);
    }

    /** Pages decompressed one after the other into one reused array: each comes whole, over what the last left. */
    @Test
    void pagesDecompressIntoAReusedArray() throws Exception {
        byte[] reused = new byte[12_000];
        Arrays.fill(reused, (byte) 0x5A);
        Random random = new Random(9);
        for (int size : new int[] {10_000, 3_000, 12_000}) {
            byte[] page = new byte[size];
            random.nextBytes(page);
            BytesInput decompressed = snappy.decompress(BytesInput.from(Snappy.compress(page)), size);
            assertThat(decompressed).isInstanceOf(PageCodecs.SnappyPage.class);
            ((PageCodecs.SnappyPage) decompressed).decompressInto(reused);
            assertThat(Arrays.copyOf(reused, size)).isEqualTo(page);
        }
        PageCodecs.SnappyPage tooLarge = (PageCodecs.SnappyPage) snappy.decompress(
                BytesInput.from(Snappy.compress(new byte[12_001])), 12_001);
        assertThatThrownBy(() -> tooLarge.decompressInto(reused)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void filesOfEveryCodecReadAsDuckDbReadsThem() throws Exception {
        FormatReader reader = FileFormats.reader(FileFormat.PARQUET);
        String query = "SELECT i AS id, 'v' || (i % 97) AS s, i * 0.5 AS x FROM range(30000) t(i)";
        try (SourceTestSupport support = new SourceTestSupport()) {
            List<List<Object>> expected = new ArrayList<>(support.query(query));
            for (String codec : List.of("SNAPPY", "ZSTD", "GZIP", "UNCOMPRESSED", "LZ4")) {
                String file = dir.resolve(codec + ".parquet").toString();
                support.execute("COPY (" + query + ") TO '" + file + "' (FORMAT PARQUET, COMPRESSION " + codec
                        + ", ROW_GROUP_SIZE 10000)");
                Schema schema = reader.inferSchema(file);
                assertThat(support.readAll(reader, file, schema, List.of("id", "s", "x"), 4096)).as(codec)
                        .isEqualTo(expected);
            }
        }
    }

    /**
     * One scan of a range of row groups: each column's pages, large, small, then larger again, go
     * through the one array of that column ({@link PageArrays}), and every value reads as DuckDB
     * reads it; a column's array is kept from row group to row group, and columns do not share one.
     */
    @Test
    void aRangeOfRowGroupsWithPagesOfDifferentSizesReadsAsDuckDbReadsIt() throws Exception {
        FormatReader reader = FileFormats.reader(FileFormat.PARQUET);
        String file = dir.resolve("ranges.parquet").toString();
        // strings of 40, then 12, then 60 characters a row group: each page smaller or larger than the last
        String query = "SELECT i AS id, substr(md5(i::VARCHAR) || md5((i + 1)::VARCHAR), 1,"
                + " CASE WHEN i < 100000 THEN 40 WHEN i < 200000 THEN 12 ELSE 60 END) AS s"
                + " FROM range(300000) t(i)";
        try (SourceTestSupport support = new SourceTestSupport()) {
            support.execute("COPY (" + query + ") TO '" + file + "' (FORMAT PARQUET, COMPRESSION SNAPPY,"
                    + " ROW_GROUP_SIZE 100000)");
            List<io.sluice.datasource.file.ScanPartition> partitions = reader.partitions(file, java.util.Map.of());
            assertThat(partitions).singleElement().satisfies(p -> assertThat(p.isRange()).isTrue());
            Schema schema = reader.inferSchema(file);
            assertThat(support.readAll(reader, file, schema, List.of("s", "id"), 4096))
                    .isEqualTo(support.query("SELECT s, id FROM (" + query + ")"));
        }

        PageArrays arrays = new PageArrays();
        PageArrays.Slot first = arrays.column(1);
        byte[] large = first.atLeast(1000);
        assertThat(arrays.column(1)).isSameAs(first);
        assertThat(arrays.column(0)).isNotSameAs(first);
        assertThat(first.atLeast(10)).isSameAs(large);
        assertThat(first.atLeast(1001)).hasSizeGreaterThanOrEqualTo(1001).isNotSameAs(large);
        assertThatThrownBy(() -> arrays.column(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
