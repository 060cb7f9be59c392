package io.sluice.sparkpeer;

import java.io.File;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/**
 * Rewrites TPC-H tables with Apache Spark 4.2 ({@code local[2]}, its default Parquet writer
 * settings), so that {@code sluice tpch --writer spark} measures on files Spark wrote:
 * {@code INPUT_DIR/<table>/*.parquet} read and written again as {@code OUTPUT_DIR/<table>/part-*.parquet},
 * as many files as Spark's read splits make.
 *
 * <p>Usage: {@code SparkTpchWriter INPUT_DIR OUTPUT_DIR TABLE...}.
 */
public final class SparkTpchWriter {
    private SparkTpchWriter() {
    }

    public static void main(String[] args) {
        if (args.length < 3) {
            System.err.println("usage: SparkTpchWriter INPUT_DIR OUTPUT_DIR TABLE...");
            System.exit(2);
        }
        SparkSession spark = SparkSession.builder().master("local[2]").appName("sluice-tpch-writer")
                .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
        try {
            for (int i = 2; i < args.length; i++) {
                String table = args[i];
                spark.read().parquet(args[0] + File.separator + table)
                        .write().mode(SaveMode.Overwrite).parquet(args[1] + File.separator + table);
                System.out.println("wrote " + table);
            }
        } finally {
            spark.stop();
        }
    }
}
