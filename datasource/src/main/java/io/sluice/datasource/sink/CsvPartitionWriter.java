package io.sluice.datasource.sink;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TemporalValues;
import io.sluice.datasource.csv.CsvOptions;
import io.sluice.kernels.Batch;
import io.sluice.kernels.VectorReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Writes batches to one UTF-8 CSV file in the dialect the CSV scan reads with the same options
 * ({@link CsvOptions}): by default a header line, comma separated, RFC 4180 quoting, NULL as an
 * empty unquoted field (or the unquoted {@code nullValue}) and the empty string as {@code ""};
 * dates as yyyy-mm-dd (or {@code dateFormat}), timestamps likewise, decimals in plain notation.
 */
final class CsvPartitionWriter implements PartitionFileWriter {
    private final Writer out;
    private final DataType.Kind[] kinds;
    private final char delimiter;
    private final char quote;
    private final char escape;
    private final String nullValue;
    private final DateTimeFormatter dateFormat;
    private final DateTimeFormatter timestampFormat;

    CsvPartitionWriter(Schema schema, Path file, Configuration conf, CsvOptions options) throws IOException {
        for (Field f : schema.fields()) {
            if (f.type().isNested()) {
                throw new SluiceException("CSV cannot hold column '" + f.name() + "' of the nested type "
                        + f.type().sqlName() + "; write Parquet, or select its fields");
            }
        }
        this.delimiter = options.delimiter();
        this.quote = options.quote();
        this.escape = options.escape();
        this.nullValue = options.nullValue() == null ? "" : options.nullValue();
        this.dateFormat = options.dateFormat() == null ? null : CsvOptions.formatter("dateFormat", options.dateFormat());
        this.timestampFormat = options.timestampFormat() == null ? null
                : CsvOptions.formatter("timestampFormat", options.timestampFormat());
        FileSystem fs = file.getFileSystem(conf);
        this.out = new BufferedWriter(new OutputStreamWriter(fs.create(file, false), StandardCharsets.UTF_8), 1 << 16);
        this.kinds = new DataType.Kind[schema.size()];
        for (int i = 0; i < schema.size(); i++) {
            kinds[i] = schema.fields().get(i).type().kind();
        }
        if (options.header()) {
            for (int i = 0; i < schema.size(); i++) {
                if (i > 0) {
                    out.write(delimiter);
                }
                writeText(schema.fields().get(i).name());
            }
            out.write('\n');
        }
    }

    @Override
    public void write(Batch batch) throws IOException {
        VectorReader[] columns = VectorReader.all(batch);
        int rows = batch.rowCount();
        for (int r = 0; r < rows; r++) {
            for (int i = 0; i < columns.length; i++) {
                if (i > 0) {
                    out.write(delimiter);
                }
                VectorReader c = columns[i];
                if (c.isNull(r)) {
                    out.write(nullValue);
                    continue;
                }
                switch (kinds[i]) {
                    case UTF8 -> writeText(c.stringAt(r));
                    case DATE32 -> out.write(dateFormat == null ? c.format(r)
                            : LocalDate.ofEpochDay(c.longAt(r)).format(dateFormat));
                    case TIMESTAMP -> out.write(timestampFormat == null ? c.format(r)
                            : TemporalValues.toLocalDateTime(c.longAt(r)).format(timestampFormat));
                    default -> out.write(c.format(r));
                }
            }
            out.write('\n');
        }
    }

    /**
     * A string field: quoted when empty or equal to the null text (else it would read as NULL) or
     * when it holds a special character; a quote inside is escaped (doubled by default).
     */
    private void writeText(String s) throws IOException {
        boolean quoted = s.isEmpty() || s.equals(nullValue);
        for (int i = 0; i < s.length() && !quoted; i++) {
            char ch = s.charAt(i);
            quoted = ch == delimiter || ch == quote || ch == escape || ch == '\n' || ch == '\r';
        }
        if (!quoted) {
            out.write(s);
            return;
        }
        out.write(quote);
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == quote || (ch == escape && escape != quote)) {
                out.write(escape);
            }
            out.write(ch);
        }
        out.write(quote);
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
