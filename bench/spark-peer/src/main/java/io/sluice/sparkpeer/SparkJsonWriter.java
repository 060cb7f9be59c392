package io.sluice.sparkpeer;

import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/**
 * Writes a small table as JSON lines with Spark's own writer, for Sluice's tests of files other
 * engines wrote: scalars of every JSON kind with NULLs (left out, as Spark writes them), a decimal,
 * a date, a timestamp (UTC), a nested object, arrays of strings and numbers, and an array of objects.
 * One file, in {@code local[1]}.
 *
 * <p>Usage: {@code SparkJsonWriter OUTPUT_DIR ROWS}; the file is {@code OUTPUT_DIR/part-00000-*.json}.
 */
public final class SparkJsonWriter {
    private SparkJsonWriter() {
    }

    public static void main(String[] args) {
        if (args.length != 2) {
            System.err.println("usage: SparkJsonWriter OUTPUT_DIR ROWS");
            System.exit(2);
        }
        int rows = Integer.parseInt(args[1]);
        SparkSession spark = SparkSession.builder().master("local[1]").appName("sluice-json-writer")
                .config("spark.sql.session.timeZone", "UTC").config("spark.ui.enabled", "false").getOrCreate();
        try {
            spark.sql("SELECT id,"
                    + " CASE WHEN id % 7 = 0 THEN NULL WHEN id % 5 = 0 THEN concat('é \"q\" ', id) ELSE concat('name', id % 13) END AS name,"
                    + " CASE WHEN id % 6 = 0 THEN NULL ELSE id * 1.5 END AS score,"
                    + " CASE WHEN id % 9 = 0 THEN NULL ELSE id % 2 = 0 END AS flag,"
                    + " CAST(id * 12.34 - 500 AS DECIMAL(10,2)) AS amount,"
                    + " date_add(DATE '2024-01-01', CAST(id AS INT)) AS d,"
                    + " CAST(timestamp_seconds(1704067200 + id * 3601) AS TIMESTAMP) AS ts,"
                    + " CASE WHEN id % 4 = 0 THEN NULL ELSE named_struct('city', concat('c', id % 3), 'zip', CAST(1000 + id % 17 AS INT),"
                    + "   'geo', named_struct('lat', id / 10.0D, 'lon', -id / 20.0D)) END AS info,"
                    + " CASE WHEN id % 8 = 0 THEN NULL WHEN id % 8 = 1 THEN array() ELSE array(concat('t', id % 4), concat('u', id % 5)) END AS tags,"
                    + " sequence(0, CAST(id % 4 AS BIGINT)) AS nums,"
                    + " array(named_struct('sku', concat('s', id % 10), 'qty', id % 3), named_struct('sku', 'x', 'qty', 1)) AS items"
                    + " FROM range(0, " + rows + ")")
                    .coalesce(1).write().mode(SaveMode.Overwrite).json(args[0]);
        } finally {
            spark.stop();
        }
    }
}
