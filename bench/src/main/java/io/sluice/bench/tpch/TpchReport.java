package io.sluice.bench.tpch;

import io.sluice.operators.memory.Bytes;
import io.sluice.tpch.Agreement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Renders the results of {@code bin/sluice tpch}: one line per query with Sluice's median, the
 * peers' medians and ratios and whether the answers agree, the geometric means, and notes for
 * errors and disagreements.
 */
final class TpchReport {
    private TpchReport() {
    }

    /** The table of every query's times, ratios and agreements, its summary line and the notes. */
    static void print(TpchOptions options, java.nio.file.Path data, List<TpchResult> results, long peakRssKb) {
        System.out.println();
        System.out.printf(Locale.ROOT, "TPC-H sf %s, files %s, %s; median of %d after %d warm-up%s%s%n", options.scaleFactor,
                data,
                options.coordinator != null ? "cluster at " + options.coordinator : "embedded cluster, " + options.workers + " workers",
                options.runs, options.warmups, options.compare ? "; DuckDB threads=" + options.duckdbThreads : "",
                options.spark ? "; Spark 4.2 local[2]" : "");
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-5s %10s %8s %10s", "query", "sluice_ms", "rows",
                "fetch_wait"));
        // bytes spilled by the default-memory runs: shown whenever one spilled, so a large scale
        // factor reports its spill path without --memory
        boolean spilled = results.stream().anyMatch(r -> r.spilledBytes > 0);
        if (spilled) {
            header.append(String.format(Locale.ROOT, " %10s", "spilled"));
        }
        if (options.memory > 0) {
            header.append(String.format(Locale.ROOT, " %10s %9s %10s %10s", "memory_ms", "vs_unlim", "spilled", "task_peak"));
        }
        if (options.versusLocal) {
            header.append(String.format(Locale.ROOT, " %10s %9s", "local_ms", "vs_local"));
        }
        if (options.compare) {
            header.append(String.format(Locale.ROOT, " %10s %9s", "duckdb_ms", "vs_duckdb"));
        }
        if (options.spark) {
            header.append(String.format(Locale.ROOT, " %10s %9s", "spark_ms", "vs_spark"));
        }
        if (options.compare) {
            header.append(String.format(Locale.ROOT, "  %-12s", "duckdb_agree"));
        }
        if (options.compare && options.memory > 0) {
            header.append(String.format(Locale.ROOT, "  %-12s", "memory_agree"));
        }
        if (options.spark) {
            header.append(String.format(Locale.ROOT, "  %-12s", "spark_agree"));
        }
        if (options.location != null) {
            header.append("  requests_per_run");
        }
        System.out.println(header.toString().stripTrailing());
        GeometricMean versusDuckDb = new GeometricMean();
        GeometricMean versusSpark = new GeometricMean();
        GeometricMean versusUnlimited = new GeometricMean();
        GeometricMean versusLocal = new GeometricMean();
        List<String> notes = new ArrayList<>();
        for (TpchResult r : results) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "q%-4d %10s %8s %10s", r.query,
                    r.error != null ? "error" : String.format(Locale.ROOT, "%.0f", r.sluiceMedianMs),
                    r.error != null ? "-" : Long.toString(r.rows),
                    Double.isNaN(r.fetchWaitShare) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * r.fetchWaitShare)));
            if (r.error != null) {
                notes.add(String.format(Locale.ROOT, "q%d sluice error: %s", r.query, r.error));
            }
            if (spilled) {
                line.append(String.format(Locale.ROOT, " %10s", spilledText(r)));
            }
            if (options.memory > 0) {
                TpchResult m = r.limited;
                line.append(sluiceColumns(m, m, r, versusUnlimited, notes, "with --memory"));
                line.append(String.format(Locale.ROOT, " %10s %10s",
                        spilledText(m),
                        m == null || m.peakTaskMemory < 0 ? "-" : Bytes.format(m.peakTaskMemory).replace(" ", "")));
            }
            if (options.versusLocal) {
                line.append(sluiceColumns(r.local, r, r.local, versusLocal, notes, "on the local copy"));
            }
            if (options.compare) {
                line.append(peerColumns(r, r.duckdbMedianMs, versusDuckDb));
            }
            if (options.spark) {
                line.append(peerColumns(r, r.sparkMedianMs, versusSpark));
            }
            if (options.compare) {
                line.append(String.format(Locale.ROOT, "  %-12s", verdict(r.query, "duckdb", r.agreement, notes)));
            }
            if (options.compare && options.memory > 0) {
                line.append(String.format(Locale.ROOT, "  %-12s", r.limited == null ? "-"
                        : verdict(r.query, "duckdb (--memory)", r.limited.agreement, notes)));
            }
            if (options.spark) {
                line.append(String.format(Locale.ROOT, "  %-12s", verdict(r.query, "spark", r.sparkAgreement, notes)));
            }
            if (options.location != null) {
                line.append("  ").append(r.requests == null ? "-" : r.requests);
            }
            System.out.println(line.toString().stripTrailing());
        }
        long ran = results.stream().filter(r -> r.error == null).count();
        System.out.printf(Locale.ROOT, "%d of %d queries ran", ran, results.size());
        if (versusDuckDb.count > 0) {
            System.out.printf(Locale.ROOT, "; geometric mean ratio sluice/duckdb %.2fx over %d", versusDuckDb.value(), versusDuckDb.count);
            double sluiceTotal = 0;
            double duckdbTotal = 0;
            for (TpchResult r : results) {
                if (r.error == null && !Double.isNaN(r.duckdbMedianMs)) {
                    sluiceTotal += r.sluiceMedianMs;
                    duckdbTotal += r.duckdbMedianMs;
                }
            }
            System.out.printf(Locale.ROOT, "; total %.1f s / %.1f s = %.2fx", sluiceTotal / 1e3, duckdbTotal / 1e3,
                    sluiceTotal / Math.max(duckdbTotal, 0.001));
        }
        if (versusSpark.count > 0) {
            System.out.printf(Locale.ROOT, "; sluice/spark %.2fx over %d", versusSpark.value(), versusSpark.count);
        }
        if (versusLocal.count > 0) {
            System.out.printf(Locale.ROOT, "; %s / local copy %.2fx over %d (sum %.0f ms / %.0f ms)", options.location,
                    versusLocal.value(), versusLocal.count, sum(results, false), sum(results, true));
        }
        if (versusUnlimited.count > 0) {
            System.out.printf(Locale.ROOT, "; memory %s / default memory %.2fx over %d",
                    Bytes.format(options.memory), versusUnlimited.value(), versusUnlimited.count);
        }
        System.out.println();
        if (peakRssKb > 0 && options.coordinator == null) {
            System.out.printf(Locale.ROOT, "peak RSS of this JVM while Sluice ran: %d MB%n", peakRssKb / 1024);
        }
        if (spilled) {
            long total = results.stream().filter(r -> r.spilledBytes > 0).mapToLong(r -> r.spilledBytes).sum();
            System.out.printf(Locale.ROOT, "spilled: bytes written to spill files per run, %s in all; largest one task held: %s%n",
                    Bytes.format(total), Bytes.format(results.stream().mapToLong(r -> r.peakTaskMemory).max().orElse(0)));
        }
        if (results.stream().anyMatch(r -> "yes~".equals(r.agreement) || (r.sparkAgreement != null && r.sparkAgreement.endsWith("yes~")))) {
            System.out.printf(Locale.ROOT, "yes~: equal but for numbers within %s absolute + %s relative (decimal against double averages)%n",
                    Agreement.ABSOLUTE, Agreement.RELATIVE);
        }
        if (!notes.isEmpty()) {
            System.out.println("notes:");
            notes.forEach(note -> System.out.println("  " + note));
        }
    }

    /** Bytes a run spilled, compact ("-" where not measured). */
    private static String spilledText(TpchResult r) {
        return r == null || r.spilledBytes < 0 ? "-" : Bytes.format(r.spilledBytes).replace(" ", "");
    }

    /**
     * The median of a second Sluice run of {@code r}'s query and the ratio {@code numerator} /
     * {@code denominator} (one of them the second run), added to {@code mean}; its error noted.
     */
    private static String sluiceColumns(TpchResult other, TpchResult numerator, TpchResult denominator, GeometricMean mean,
            List<String> notes, String which) {
        boolean both = numerator != null && denominator != null && numerator.error == null && denominator.error == null;
        double ratio = both ? numerator.sluiceMedianMs / Math.max(denominator.sluiceMedianMs, 0.001) : Double.NaN;
        if (both) {
            mean.add(ratio);
        }
        if (other != null && other.error != null) {
            notes.add(String.format(Locale.ROOT, "q%d sluice error %s: %s", other.query, which, other.error));
        }
        return String.format(Locale.ROOT, " %10s %9s",
                other == null || other.error != null ? "error" : String.format(Locale.ROOT, "%.0f", other.sluiceMedianMs),
                both ? String.format(Locale.ROOT, "%.2fx", ratio) : "-");
    }

    /** Total median time of the queries that ran on both, at the location or ({@code local}) on the local copy. */
    private static double sum(List<TpchResult> results, boolean local) {
        double total = 0;
        for (TpchResult r : results) {
            if (r.error == null && r.local != null && r.local.error == null) {
                total += local ? r.local.sluiceMedianMs : r.sluiceMedianMs;
            }
        }
        return total;
    }

    /** A peer's median and Sluice's time over it ("-" where either is missing). */
    private static String peerColumns(TpchResult r, double peerMs, GeometricMean mean) {
        String ratio = "-";
        if (r.error == null && !Double.isNaN(peerMs)) {
            double value = r.sluiceMedianMs / Math.max(peerMs, 0.001);
            ratio = String.format(Locale.ROOT, "%.2fx", value);
            mean.add(value);
        }
        return String.format(Locale.ROOT, " %10s %9s", Double.isNaN(peerMs) ? "-" : String.format(Locale.ROOT, "%.0f", peerMs), ratio);
    }

    /** The short form of an agreement for the table; a detailed one ("NO: ...", "... error: ...") also becomes a note. */
    private static String verdict(int query, String peer, String agreement, List<String> notes) {
        if (agreement == null) {
            return "-";
        }
        int colon = agreement.indexOf(':');
        if (colon < 0) {
            return agreement;
        }
        notes.add(String.format(Locale.ROOT, "q%d %s: %s", query, peer, agreement));
        return agreement.substring(0, colon);
    }

    /** Geometric mean of ratios. */
    private static final class GeometricMean {
        private double logSum;
        private int count;

        void add(double ratio) {
            logSum += Math.log(ratio);
            count++;
        }

        double value() {
            return Math.exp(logSum / count);
        }
    }
}
