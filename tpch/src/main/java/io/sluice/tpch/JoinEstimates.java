package io.sluice.tpch;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The joins of an EXPLAIN ANALYZE text with the rows the planner estimated for each and the rows it
 * output: how {@code sluice tpch --estimates} and the TPC-H test measure the estimator. The error
 * of an estimate is its q-error, {@code max(est, actual) / min(est, actual)} with both at least 1,
 * so over- and underestimates count alike.
 */
public final class JoinEstimates {
    /** A join line: the operator, its arguments, and the estimate and rows EXPLAIN ANALYZE appends. */
    private static final Pattern JOIN = Pattern.compile("^\\s*(\\w*JoinExec: .*?)\\s+\\[est_rows=(\\d+|\\?) rows=(\\d+) ");

    private JoinEstimates() {
    }

    /** One join: its EXPLAIN line (without the measurements), estimated rows (-1 when none) and actual rows. */
    public record Join(String operator, long estimated, long actual) {
        /** max / min of the estimate and the actual rows, each at least 1; infinite without an estimate. */
        public double error() {
            if (estimated < 0) {
                return Double.POSITIVE_INFINITY;
            }
            double e = Math.max(1, estimated);
            double a = Math.max(1, actual);
            return Math.max(e, a) / Math.min(e, a);
        }

        /** The error with its direction: {@code 12.0x over} or {@code 3.1x under}. */
        public String describeError() {
            if (estimated < 0) {
                return "no estimate";
            }
            return String.format(Locale.ROOT, "%.1fx %s", error(), Math.max(1, estimated) >= Math.max(1, actual) ? "over" : "under");
        }
    }

    /** The joins of {@code explainAnalyze}, in the order printed (each stage's plan in pre-order). */
    public static List<Join> parse(String explainAnalyze) {
        List<Join> out = new ArrayList<>();
        for (String line : explainAnalyze.split("\n")) {
            Matcher m = JOIN.matcher(line);
            if (m.find()) {
                long estimated = m.group(2).equals("?") ? -1 : Long.parseLong(m.group(2));
                out.add(new Join(m.group(1), estimated, Long.parseLong(m.group(3))));
            }
        }
        return out;
    }
}
