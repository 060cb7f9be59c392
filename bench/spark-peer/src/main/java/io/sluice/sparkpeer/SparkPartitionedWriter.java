package io.sluice.sparkpeer;

import org.apache.spark.sql.SparkSession;

/**
 * Writes a small Hive-partitioned Parquet dataset with Apache Spark, as a reference input written by
 * another engine: {@code sales/region=<string>/day=<date>/part-*.parquet} with a NULL region
 * ({@code __HIVE_DEFAULT_PARTITION__}) and a region value that needs escaping ({@code a/b}).
 *
 * <p>Usage: {@code SparkPartitionedWriter OUTPUT_DIR}.
 */
public final class SparkPartitionedWriter {
    private SparkPartitionedWriter() {
    }

    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: SparkPartitionedWriter OUTPUT_DIR");
            System.exit(2);
        }
        SparkSession spark = SparkSession.builder().master("local[2]").appName("sluice-partitioned-writer")
                .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "2").getOrCreate();
        try {
            spark.sql("""
                    SELECT id,
                           CAST(id * 7 % 1000 AS INT) AS qty,
                           CAST(id % 97 AS DOUBLE) / 4 AS price,
                           concat('item-', id % 13) AS item,
                           CASE WHEN id % 10 = 9 THEN NULL WHEN id % 10 = 8 THEN 'a/b'
                                ELSE element_at(array('north', 'south', 'east'), CAST(id % 3 + 1 AS INT)) END AS region,
                           date_add(DATE '2024-01-01', CAST(id % 4 AS INT)) AS day
                    FROM range(0, 600)
                    """)
                    .repartition(2)
                    .write().partitionBy("region", "day").parquet(args[0]);
        } finally {
            spark.stop();
        }
    }
}
