package io.sluice.examples;

import static io.sluice.api.Functions.avg;
import static io.sluice.api.Functions.col;
import static io.sluice.api.Functions.countStar;
import static io.sluice.api.Functions.lit;
import static io.sluice.api.Functions.sum;
import static io.sluice.api.Functions.udf;

import io.sluice.api.DataFrame;
import io.sluice.api.Session;
import io.sluice.common.types.DataType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Random;

/**
 * The demonstration job: writes a small sales data set as CSV files, starts an embedded cluster
 * (a coordinator and two workers on 127.0.0.1), and runs one report with the DataFrame API and one
 * with SQL, and one grouping by a user-defined function ({@link OrderSize}). {@code bin/run-example}
 * runs it; an argument names the data directory.
 */
public final class SalesReport {
    private static final String[] REGIONS = {"north", "south", "east", "west", "central"};
    private static final String[] PRODUCTS = {"anvil", "bolt", "crate", "drill", "easel", "flange", "gear"};

    private SalesReport() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("sluice-sales-");
        Path sales = dir.resolve("sales");
        writeSales(sales, 4, 50_000);
        System.out.println("Sales data: " + sales + " (4 CSV files, 200000 rows)");

        try (Session session = Session.create()) { // an embedded cluster, or where `sluice submit` points it
            DataFrame orders = session.read().csv(sales.toString());
            DataFrame report = orders
                    .filter(col("quantity").gt(lit(0)))
                    .groupBy("region")
                    .agg(sum(col("amount")).as("revenue"), countStar().as("orders"), avg(col("quantity")).as("avg_quantity"))
                    .orderBy(col("revenue").desc());
            System.out.println("\nRevenue by region (DataFrame API):");
            report.show();
            System.out.println("\nThe plan:\n" + report.explain());

            System.out.println("Top products in the north (SQL):");
            session.sql("CREATE EXTERNAL TABLE sales STORED AS CSV LOCATION '" + sales + "'");
            System.out.print(session.sql("SELECT product, sum(amount) AS revenue, max(sold_on) AS last_sale FROM sales "
                    + "WHERE region = 'north' GROUP BY product ORDER BY revenue DESC LIMIT 3").collect().toTable());

            System.out.println("Orders by size (a user-defined function):");
            orders.select(udf(OrderSize.class, DataType.UTF8, col("quantity")).as("size"))
                    .groupBy("size").agg(countStar().as("orders")).orderBy("size").show();
        }
    }

    static void writeSales(Path directory, int files, int rowsPerFile) {
        Random random = new Random(42);
        LocalDate start = LocalDate.of(2025, 1, 1);
        try {
            Files.createDirectories(directory);
            for (int f = 0; f < files; f++) {
                try (Writer out = Files.newBufferedWriter(directory.resolve("part-" + f + ".csv"), StandardCharsets.UTF_8)) {
                    out.write("order_id,region,product,quantity,amount,sold_on\n");
                    for (int i = 0; i < rowsPerFile; i++) {
                        long id = (long) f * rowsPerFile + i;
                        int quantity = random.nextInt(12) - 1;
                        String amount = random.nextInt(20) == 0 ? "" : String.format("%.2f", quantity * (5 + random.nextInt(9500) / 100.0));
                        out.write(id + "," + REGIONS[random.nextInt(REGIONS.length)] + "," + PRODUCTS[random.nextInt(PRODUCTS.length)]
                                + "," + quantity + "," + amount + "," + start.plusDays(random.nextInt(365)) + "\n");
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
