package io.sluice.datasource.csv;

import io.sluice.common.Closeables;
import io.sluice.common.SluiceException;
import io.sluice.datasource.file.HadoopConfiguration;
import io.sluice.datasource.file.SourceFiles;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;

/** Opens a CSV file (UTF-8, decompressed by file suffix when Hadoop knows the codec) and reads its header. */
final class CsvFile {
    /** Finds codecs by file suffix (.gz, .bz2, ...); read-only after construction. */
    private static final CompressionCodecFactory CODECS = new CompressionCodecFactory(HadoopConfiguration.shared());

    private CsvFile() {
    }

    /** A tokenizer positioned at the first line, splitting as {@code options} say; the caller closes it. */
    static CsvTokenizer open(Path path, CsvOptions options) {
        return open(path, -1, -1, options);
    }

    /** The same, of a file whose length and modification time listing found ({@link SourceFiles#open}). */
    static CsvTokenizer open(Path path, long fileLength, long modificationTime, CsvOptions options) {
        InputStream in = null;
        try {
            in = SourceFiles.open(path, fileLength, modificationTime);
            CompressionCodec codec = CODECS.getCodec(path);
            if (codec != null) {
                in = codec.createInputStream(in);
            }
            return new CsvTokenizer(new InputStreamReader(in, StandardCharsets.UTF_8), path.toString(), options);
        } catch (FileNotFoundException e) {
            Closeables.closeOnFailure(in, e);
            throw new SluiceException("file not found: " + path, e);
        } catch (IOException | RuntimeException e) {
            Closeables.closeOnFailure(in, e);
            if (e instanceof SluiceException s) {
                throw s;
            }
            throw new SluiceException("cannot open CSV file " + path + ": " + e.getMessage(), e);
        }
    }

    /**
     * The column names of the header line; an empty name becomes {@code column<n>} (1-based). A file
     * without a header line is a user error.
     */
    static List<String> readHeader(CsvTokenizer tokenizer, Path path) throws IOException {
        if (!tokenizer.next()) {
            throw new SluiceException(path + ": empty CSV file, expected a header line (or the option header 'false')");
        }
        List<String> names = new ArrayList<>(tokenizer.fieldCount());
        for (int i = 0; i < tokenizer.fieldCount(); i++) {
            String name = tokenizer.text(i);
            names.add(name.isEmpty() ? "column" + (i + 1) : name);
        }
        return names;
    }

    /** Skips the header line when the options say the files have one. */
    static void skipHeader(CsvTokenizer tokenizer, Path path, CsvOptions options) throws IOException {
        if (options.header()) {
            readHeader(tokenizer, path);
        }
    }

    /** The message for a record with the wrong number of fields. */
    static SluiceException malformedRow(Path path, long line, int expected, int found) {
        return new SluiceException(path + ": line " + line + ": malformed row, expected " + expected + " fields but found "
                + found);
    }
}
