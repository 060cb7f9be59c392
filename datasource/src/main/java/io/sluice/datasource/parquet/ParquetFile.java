package io.sluice.datasource.parquet;

import io.sluice.common.SluiceException;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.datasource.file.HadoopConfiguration;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/** Opening Parquet files and mapping their schemas, with failures as {@link SluiceException}s naming the file. */
final class ParquetFile {
    private ParquetFile() {
    }

    /**
     * A reader that has read the footer; the caller closes it. Opens the file with read options taken from the shared configuration: parquet-hadoop's
     * {@code ParquetFileReader.open(InputFile)} builds a fresh Hadoop {@code Configuration} each
     * time, parsing its default XML resources, which cost more than reading a row group's keys
     * (every scan task opens its file).
     */
    static ParquetFileReader open(Path path) {
        try {
            return ParquetFileReader.open(HadoopInputFile.fromPath(path, HadoopConfiguration.shared()),
                    org.apache.parquet.HadoopReadOptions.builder(HadoopConfiguration.shared(), path).build());
        } catch (FileNotFoundException e) {
            throw new SluiceException("file not found: " + path, e);
        } catch (IOException | RuntimeException e) {
            throw new SluiceException("cannot read Parquet file " + path + ": " + e.getMessage(), e);
        }
    }

    /** The Sluice schema of a Parquet schema, nested fields included. */
    static Schema schema(MessageType message, String file) {
        List<Field> fields = new ArrayList<>(message.getFieldCount());
        for (Type field : message.getFields()) {
            fields.add(new Field(field.getName(), ParquetNestedType.of(field, file)));
        }
        try {
            return new Schema(fields);
        } catch (SluiceException e) {
            throw new SluiceException(file + ": " + e.getMessage(), e);
        }
    }

    /** The field of {@code message} named {@code name}: exact match first, then ignoring case; null if none. */
    static Type field(MessageType message, String name) {
        if (message.containsField(name)) {
            return message.getType(name);
        }
        for (Type field : message.getFields()) {
            if (field.getName().equalsIgnoreCase(name)) {
                return field;
            }
        }
        return null;
    }
}
