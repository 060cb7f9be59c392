package io.sluice.sparkpeer;

import org.apache.spark.sql.SparkSession;

/**
 * Writes the small Spark-written nested Parquet files the nested-column tests read
 * ({@code api/src/test/resources/spark-nested/}): one file in Spark's standard layout and one in its
 * legacy layout ({@code spark.sql.parquet.writeLegacyFormat}: 2-level lists named {@code bag}/{@code array}).
 * Usage: {@code SparkNestedWriter OUT_DIR}; writes {@code OUT_DIR/standard} and {@code OUT_DIR/legacy}.
 */
public final class SparkNestedWriter {
    static final String ROWS = """
            SELECT id,
                   CASE WHEN id % 11 = 0 THEN NULL ELSE named_struct('a', CAST(id AS INT), 'b', concat('x', id % 7),
                        'sub', named_struct('d', id * 2, 'e', array(id % 3, NULL))) END AS s,
                   CASE WHEN id % 9 = 0 THEN NULL WHEN id % 4 = 0 THEN array() ELSE sequence(id, id + id % 4 - 1) END AS xs,
                   map(concat('k', id % 3), id, 'z', id * 10) AS m,
                   array(named_struct('p', id % 3, 'q', concat('q', id)), named_struct('p', 7L, 'q', CAST(NULL AS STRING))) AS ls
            FROM range(0, 60)""";

    private SparkNestedWriter() {
    }

    public static void main(String[] args) {
        SparkSession spark = SparkSession.builder().master("local[1]").appName("sluice-nested-writer")
                .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
        try {
            spark.sql(ROWS).coalesce(1).write().mode("overwrite").parquet(args[0] + "/standard");
            spark.conf().set("spark.sql.parquet.writeLegacyFormat", "true");
            spark.sql(ROWS).coalesce(1).write().mode("overwrite").parquet(args[0] + "/legacy");
        } finally {
            spark.stop();
        }
    }
}
