package io.sluice.datasource.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.datasource.file.HadoopConfiguration;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.fs.FileStatus;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParquetFootersTest {
    private static final MessageType TYPE = MessageTypeParser.parseMessageType(
            "message m { required int64 a; required int64 b; optional binary c (UTF8); }");

    @TempDir
    Path dir;

    @Test
    void aFooterLongerThanTheTailReadsAsParquetHadoopReadsIt() throws Exception {
        org.apache.hadoop.fs.Path file = write("wide-footer.parquet", 100_000, 1);
        FileStatus status = ParquetFile.status(file, -1, -1);
        HadoopInputFile input = HadoopInputFile.fromStatus(status, HadoopConfiguration.shared());
        ParquetReadOptions options = HadoopReadOptions.builder(HadoopConfiguration.shared(), file).build();
        ParquetMetadata expected = ParquetFileReader.readFooter(HadoopConfiguration.shared(), file);
        try (SeekableInputStream in = input.newStream()) {
            ParquetMetadata read = ParquetFooters.footer(input, status.getModificationTime(), options, in);
            assertThat(footerLength(file)).as("footer bytes").isGreaterThan(ParquetFooters.TAIL_BYTES);
            assertThat(read.getBlocks()).hasSameSizeAs(expected.getBlocks()).hasSizeGreaterThan(100);
            assertThat(read.getFileMetaData().getSchema()).isEqualTo(expected.getFileMetaData().getSchema());
            for (int i = 0; i < read.getBlocks().size(); i++) {
                assertThat(read.getBlocks().get(i).getRowCount()).isEqualTo(expected.getBlocks().get(i).getRowCount());
                assertThat(read.getBlocks().get(i).getStartingPos()).isEqualTo(expected.getBlocks().get(i).getStartingPos());
            }
        }
    }

    @Test
    void aFooterIsParsedOnceForAFileOfOneLengthAndModificationTime() throws Exception {
        org.apache.hadoop.fs.Path file = write("small.parquet", 1_000, 64 * 1024);
        FileStatus status = ParquetFile.status(file, -1, -1);
        ParquetMetadata first;
        try (ParquetFileReader reader = ParquetFile.open(file, status.getLen(), status.getModificationTime())) {
            first = reader.getFooter();
            assertThat(reader.getRecordCount()).isEqualTo(1_000);
        }
        try (ParquetFileReader again = ParquetFile.open(file, status.getLen(), status.getModificationTime());
                ParquetFileReader rewritten = ParquetFile.open(file, status.getLen(), status.getModificationTime() + 1)) {
            assertThat(again.getFooter()).isSameAs(first);
            assertThat(rewritten.getFooter()).isNotSameAs(first);
            assertThat(rewritten.getRecordCount()).isEqualTo(1_000);
        }
    }

    @Test
    void aKnownFootersMetadataIsTakenWithoutOpeningTheFile() throws Exception {
        org.apache.hadoop.fs.Path file = write("known.parquet", 1_000, 64 * 1024);
        FileStatus status = ParquetFile.status(file, -1, -1);
        ParquetMetadata read = ParquetFile.footer(file, status.getLen(), status.getModificationTime());
        assertThat(read.getBlocks().stream().mapToLong(b -> b.getRowCount()).sum()).isEqualTo(1_000);

        Files.delete(Path.of(file.toUri()));
        assertThat(ParquetFile.footer(file, status.getLen(), status.getModificationTime()))
                .as("the cached footer, the file not opened again").isSameAs(read);
        assertThatThrownBy(() -> ParquetFile.footer(file, status.getLen(), status.getModificationTime() + 1))
                .as("another modification time is another file: it is opened, and is gone")
                .isInstanceOf(SluiceException.class).hasMessageContaining("file not found").hasMessageContaining("known.parquet");
    }

    @Test
    void aFileWithABadFooterIsAnErrorNamingIt() throws Exception {
        Path bad = dir.resolve("bad.parquet");
        byte[] bytes = new byte[64];
        System.arraycopy("PAR1".getBytes(), 0, bytes, 0, 4);
        bytes[56] = (byte) 0xff; // a footer longer than the file
        bytes[57] = (byte) 0xff;
        System.arraycopy("PAR1".getBytes(), 0, bytes, 60, 4);
        Files.write(bad, bytes);
        org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(bad.toUri());
        assertThatThrownBy(() -> ParquetFile.open(path, 64, 1)).isInstanceOf(SluiceException.class)
                .hasMessageContaining(bad.toString()).hasMessageContaining("footer");
        Files.write(bad, "not parquet at all".getBytes());
        assertThatThrownBy(() -> ParquetFile.open(path, -1, -1)).isInstanceOf(SluiceException.class)
                .hasMessageContaining(bad.toString());
    }

    private org.apache.hadoop.fs.Path write(String name, int rows, long rowGroupBytes) throws Exception {
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir.resolve(name).toUri());
        SimpleGroupFactory groups = new SimpleGroupFactory(TYPE);
        try (ParquetWriter<org.apache.parquet.example.data.Group> writer = ExampleParquetWriter.builder(file)
                .withType(TYPE).withConf(HadoopConfiguration.shared()).withRowGroupSize(rowGroupBytes).build()) {
            for (int i = 0; i < rows; i++) {
                writer.write(groups.newGroup().append("a", (long) i).append("b", (long) i * 7).append("c", "value-" + i % 97));
            }
        }
        return file;
    }

    private long footerLength(org.apache.hadoop.fs.Path file) throws Exception {
        byte[] all = Files.readAllBytes(Path.of(file.toUri()));
        int n = all.length;
        return (all[n - 8] & 0xff) | (all[n - 7] & 0xff) << 8 | (all[n - 6] & 0xff) << 16 | (all[n - 5] & 0xff) << 24;
    }
}
