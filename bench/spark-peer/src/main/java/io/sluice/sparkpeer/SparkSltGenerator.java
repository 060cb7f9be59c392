package io.sluice.sparkpeer;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegralType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import scala.collection.JavaConverters;

/**
 * Writes the expected answers of Sluice's Spark SQL corpus ({@code api/src/test/resources/spark-sql/*.slt})
 * by running every statement on Apache Spark 4.2 itself, so the corpus states what Spark answers,
 * never what Sluice happens to answer. Run by hand ({@code scripts/spark-slt-expected.sh}), never in CI;
 * its output is committed.
 *
 * <p>Each file runs in a fresh Spark session ({@code local[2]}, session time zone UTC), records in
 * order: {@code statement ok} must succeed on Spark (else the generator stops, naming file:line);
 * {@code statement error} is run and must fail on Spark too (with the Spark error class its text starts
 * with, as {@code [DIVIDE_BY_ZERO]}, when it names one), its expected text (Sluice's message) is kept; {@code query} records get their type letters and rows rewritten from Spark's result, in the
 * canonical text form below (rows sorted when the record says {@code rowsort}). Everything else in the
 * file (comments, blank lines, SQL) is kept as written.
 *
 * <p>Canonical text, the same rules as the runner's ({@code SparkSqlCorpusIT}): NULL as {@code NULL};
 * the empty string as {@code (empty)}; integers in decimal; decimals without trailing zeros, whole
 * ones as integers; doubles whole below 1e15 as integers, others rounded to 9 significant digits in
 * plain notation, {@code NaN}, {@code Infinity}, {@code -Infinity}; dates {@code yyyy-mm-dd};
 * timestamps {@code yyyy-mm-dd hh:mm:ss[.fraction]} (no trailing zeros, in the session time zone); booleans
 * {@code true}/{@code false}; arrays {@code [a, b]}, maps {@code {k -> v, …}}, structs {@code {a, b}}.
 * Values of a row are separated by a tab. Type letters: I integral, R floating or decimal, T string,
 * D date, P timestamp, B boolean, A array, M map, S struct.
 *
 * <p>Usage: {@code SparkSltGenerator FILE_OR_DIR...}.
 */
public final class SparkSltGenerator {
    private static final MathContext SIGNIFICANT = new MathContext(9);
    private static final DateTimeFormatter DATE = DateTimeFormatter.ISO_LOCAL_DATE;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

    private SparkSltGenerator() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.err.println("usage: SparkSltGenerator FILE_OR_DIR...");
            System.exit(2);
        }
        List<Path> files = new ArrayList<>();
        for (String arg : args) {
            Path p = Path.of(arg);
            if (Files.isDirectory(p)) {
                try (Stream<Path> list = Files.list(p)) {
                    list.filter(f -> f.toString().endsWith(".slt")).sorted().forEach(files::add);
                }
            } else {
                files.add(p);
            }
        }
        SparkSession root = SparkSession.builder().master("local[2]").appName("sluice-slt")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.session.timeZone", "UTC")
                .config("spark.sql.shuffle.partitions", "3")
                .config("spark.sql.datetime.java8API.enabled", "true")
                .config("spark.sql.warehouse.dir", System.getProperty("java.io.tmpdir") + "/sluice-slt-warehouse-"
                        + ProcessHandle.current().pid())
                .getOrCreate();
        root.sparkContext().setLogLevel("ERROR");
        int failures = 0;
        try {
            for (Path file : files) {
                failures += generate(root.newSession(), file);
            }
        } finally {
            root.stop();
        }
        if (failures > 0) {
            System.err.println(failures + " record(s) failed on Spark; their files were left unchanged");
            System.exit(1);
        }
    }

    /**
     * The Spark error class a {@code statement error [CLASS] …} record names ({@code [DIVIDE_BY_ZERO]}),
     * which Spark's own error must carry too; null when the text names none.
     */
    private static String errorClass(String header) {
        String text = header.strip().substring("statement error".length()).strip();
        int end = text.indexOf(']');
        return text.startsWith("[") && end > 1 ? text.substring(0, end + 1) : null;
    }

    /** Rewrites one file's expected answers; returns the number of records Spark refused (file untouched then). */
    private static int generate(SparkSession spark, Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        List<String> out = new ArrayList<>();
        int failures = 0;
        int i = 0;
        while (i < lines.size()) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                out.add(lines.get(i));
                i++;
                continue;
            }
            int start = i + 1;
            String where = file.getFileName() + ":" + start;
            i++;
            List<String> sqlLines = new ArrayList<>();
            while (i < lines.size() && !lines.get(i).isBlank() && !lines.get(i).strip().equals("----")) {
                sqlLines.add(lines.get(i));
                i++;
            }
            List<String> oldExpected = new ArrayList<>();
            boolean hadSeparator = false;
            if (i < lines.size() && lines.get(i).strip().equals("----")) {
                hadSeparator = true;
                i++;
                while (i < lines.size() && !lines.get(i).isBlank()) {
                    oldExpected.add(lines.get(i));
                    i++;
                }
            }
            String sql = String.join("\n", sqlLines).strip();
            if (sql.endsWith(";")) {
                sql = sql.substring(0, sql.length() - 1);
            }
            String[] header = line.split("\\s+");
            try {
                if (header[0].equals("statement") && header[1].equals("ok")) {
                    spark.sql(sql).collectAsList();
                    out.add(lines.get(start - 1));
                    out.addAll(sqlLines);
                } else if (header[0].equals("statement") && header[1].equals("error")) {
                    boolean failed = false;
                    String expectedClass = errorClass(line);
                    try {
                        spark.sql(sql).collectAsList();
                    } catch (Exception e) {
                        failed = true;
                        if (expectedClass != null && (e.getMessage() == null || !e.getMessage().contains(expectedClass))) {
                            System.err.println(where + ": Spark fails with another error than " + expectedClass + ": "
                                    + firstLine(e.getMessage()));
                            failures++;
                        }
                    }
                    if (!failed) {
                        System.err.println(where + ": Spark accepts what the record says must fail: " + sql);
                        failures++;
                    }
                    out.add(lines.get(start - 1));
                    out.addAll(sqlLines);
                    if (hadSeparator) {
                        out.add("----");
                        out.addAll(oldExpected);
                    }
                } else if (header[0].equals("query")) {
                    var df = spark.sql(sql);
                    ZoneId zone = ZoneId.of(spark.conf().get("spark.sql.session.timeZone"));
                    StructType schema = df.schema();
                    StringBuilder types = new StringBuilder();
                    for (StructField f : schema.fields()) {
                        types.append(letter(f.dataType()));
                    }
                    List<String> rows = new ArrayList<>();
                    for (Row row : df.collectAsList()) {
                        List<String> values = new ArrayList<>();
                        for (int c = 0; c < row.size(); c++) {
                            values.add(text(row.get(c), zone));
                        }
                        rows.add(String.join("\t", values));
                    }
                    String mode = header.length > 2 ? header[2] : "";
                    if (mode.equals("rowsort")) {
                        rows.sort(Comparator.naturalOrder());
                    }
                    out.add("query " + types + (mode.isEmpty() ? "" : " " + mode));
                    out.addAll(sqlLines);
                    out.add("----");
                    out.addAll(rows);
                } else {
                    throw new IllegalArgumentException("unknown record kind '" + line + "'");
                }
            } catch (Exception e) {
                System.err.println(where + ": " + firstLine(e.getMessage()) + "\n    " + sql.replaceAll("\\s+", " "));
                failures++;
            }
        }
        if (failures == 0) {
            Files.writeString(file, String.join("\n", out) + "\n", StandardCharsets.UTF_8);
            System.out.println(file + ": written");
        }
        return failures;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "(no message)";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

    private static char letter(DataType type) {
        if (type instanceof IntegralType) {
            return 'I';
        }
        if (type instanceof DoubleType || type instanceof FloatType || type instanceof DecimalType) {
            return 'R';
        }
        if (type instanceof StringType) {
            return 'T';
        }
        if (type instanceof DateType) {
            return 'D';
        }
        if (type instanceof TimestampType || type instanceof TimestampNTZType) {
            return 'P';
        }
        if (type instanceof BooleanType) {
            return 'B';
        }
        if (type instanceof ArrayType) {
            return 'A';
        }
        if (type instanceof MapType) {
            return 'M';
        }
        if (type instanceof StructType) {
            return 'S';
        }
        throw new IllegalArgumentException("no type letter for " + type);
    }

    private static String timestamp(LocalDateTime t) {
        String text = DATE.format(t.toLocalDate()) + " " + TIME.format(t);
        int micros = t.getNano() / 1000;
        if (micros == 0) {
            return text;
        }
        String fraction = Integer.toString(1_000_000 + micros).substring(1).replaceAll("0+$", "");
        return text + "." + fraction;
    }

    /** One value in the canonical text form (see the class doc). */
    static String text(Object value, ZoneId zone) {
        if (value == null) {
            return "NULL";
        }
        if (value instanceof String s) {
            return s.isEmpty() ? "(empty)" : s;
        }
        if (value instanceof Byte || value instanceof Short || value instanceof Integer || value instanceof Long) {
            return value.toString();
        }
        if (value instanceof BigDecimal d) {
            BigDecimal stripped = d.stripTrailingZeros();
            return stripped.scale() <= 0 ? stripped.toBigIntegerExact().toString() : stripped.toPlainString();
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                return Double.toString(d);
            }
            if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                return Long.toString((long) d);
            }
            return new BigDecimal(d).round(SIGNIFICANT).stripTrailingZeros().toPlainString();
        }
        if (value instanceof LocalDate d) {
            return DATE.format(d);
        }
        if (value instanceof Instant t) {
            return timestamp(LocalDateTime.ofInstant(t, zone)); // shown in the session time zone, as Spark shows it
        }
        if (value instanceof LocalDateTime t) {
            return timestamp(t);
        }
        if (value instanceof scala.collection.Seq<?> seq) {
            List<String> items = new ArrayList<>();
            JavaConverters.seqAsJavaList(seq).forEach(v -> items.add(text(v, zone)));
            return "[" + String.join(", ", items) + "]";
        }
        if (value instanceof scala.collection.Map<?, ?> map) {
            List<String> items = new ArrayList<>();
            for (Map.Entry<?, ?> e : JavaConverters.mapAsJavaMap(map).entrySet()) {
                items.add(text(e.getKey(), zone) + " -> " + text(e.getValue(), zone));
            }
            return "{" + String.join(", ", items) + "}";
        }
        if (value instanceof Row row) {
            List<String> items = new ArrayList<>();
            for (int i = 0; i < row.size(); i++) {
                items.add(text(row.get(i), zone));
            }
            return "{" + String.join(", ", items) + "}";
        }
        return value.toString();
    }
}
