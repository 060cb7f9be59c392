package io.sluice.datasource.sink;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.kernels.ValueFormat;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Writes batches to one UTF-8 CSV file with a header line, in the dialect the CSV scan reads:
 * comma separated, RFC 4180 quoting, NULL as an empty unquoted field and the empty string as
 * {@code ""}; dates as yyyy-mm-dd, decimals in plain notation.
 */
final class CsvPartitionWriter implements PartitionFileWriter {
    private final Writer out;
    private final boolean[] text;

    CsvPartitionWriter(Schema schema, Path file, Configuration conf) throws IOException {
        for (io.sluice.common.types.Field f : schema.fields()) {
            if (f.type().isNested()) {
                throw new io.sluice.common.SluiceException("CSV cannot hold column '" + f.name() + "' of the nested type "
                        + f.type().sqlName() + "; write Parquet, or select its fields");
            }
        }
        FileSystem fs = file.getFileSystem(conf);
        this.out = new BufferedWriter(new OutputStreamWriter(fs.create(file, false), StandardCharsets.UTF_8), 1 << 16);
        this.text = new boolean[schema.size()];
        for (int i = 0; i < schema.size(); i++) {
            text[i] = schema.fields().get(i).type().kind() == DataType.Kind.UTF8;
            if (i > 0) {
                out.write(',');
            }
            writeText(schema.fields().get(i).name());
        }
        out.write('\n');
    }

    @Override
    public void write(Batch batch) throws IOException {
        Col[] columns = batch.columns();
        int rows = batch.rowCount();
        for (int r = 0; r < rows; r++) {
            for (int i = 0; i < columns.length; i++) {
                if (i > 0) {
                    out.write(',');
                }
                Col c = columns[i];
                if (c.isNull(r)) {
                    continue;
                }
                if (text[i]) {
                    writeText(c.strings[r]);
                } else {
                    out.write(ValueFormat.format(c, r));
                }
            }
            out.write('\n');
        }
    }

    /** A string field: quoted when empty (else it would read as NULL) or when it holds a special character. */
    private void writeText(String s) throws IOException {
        boolean quote = s.isEmpty();
        for (int i = 0; i < s.length() && !quote; i++) {
            char ch = s.charAt(i);
            quote = ch == ',' || ch == '"' || ch == '\n' || ch == '\r';
        }
        if (!quote) {
            out.write(s);
            return;
        }
        out.write('"');
        out.write(s.replace("\"", "\"\""));
        out.write('"');
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
