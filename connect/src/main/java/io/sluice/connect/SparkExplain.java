package io.sluice.connect;

import io.sluice.common.types.Schema;
import io.sluice.connect.proto.AnalyzePlanRequest.Explain.ExplainMode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@code df.explain(mode)}'s text in Spark's sections, cut from Sluice's own explain (logical,
 * optimized logical, physical and staged plans): {@code simple} the physical plan, {@code extended}
 * the parsed, analyzed and optimized logical plans then the physical one, {@code cost} the optimized
 * plan (with Sluice's row estimates) and the physical one, {@code formatted} and {@code codegen} the
 * physical plan and its stages (Sluice generates no code); sections apart by a blank line and the
 * text ending in one, as Spark's. The plans are Sluice's operators, not Spark's.
 */
final class SparkExplain {
    private static final String LOGICAL = "Logical Plan";
    private static final String OPTIMIZED = "Optimized Logical Plan";
    private static final String PHYSICAL = "Physical Plan";
    private static final String STAGES = "Stages";

    private SparkExplain() {
    }

    /** Spark's text for {@code mode}; {@code schema} heads the analyzed plan ({@code a: int, b: string}) as in Spark. */
    static String format(String sluiceExplain, ExplainMode mode, Schema schema) {
        Map<String, String> sections = sections(sluiceExplain);
        StringBuilder out = new StringBuilder();
        switch (mode) {
            case EXPLAIN_MODE_EXTENDED -> {
                section(out, "Parsed Logical Plan", sections.get(LOGICAL));
                section(out, "Analyzed Logical Plan", schema.fields().stream()
                        .map(f -> f.name() + ": " + SparkTypes.simpleString(f.type())).collect(Collectors.joining(", "))
                        + "\n" + sections.get(LOGICAL));
                section(out, OPTIMIZED, sections.get(OPTIMIZED));
                section(out, PHYSICAL, sections.get(PHYSICAL));
            }
            case EXPLAIN_MODE_COST -> {
                section(out, OPTIMIZED, sections.get(OPTIMIZED));
                section(out, PHYSICAL, sections.get(PHYSICAL));
            }
            case EXPLAIN_MODE_FORMATTED, EXPLAIN_MODE_CODEGEN -> {
                section(out, PHYSICAL, sections.get(PHYSICAL));
                section(out, STAGES, sections.get(STAGES));
            }
            default -> section(out, PHYSICAL, sections.get(PHYSICAL));
        }
        return out.append('\n').toString();
    }

    private static void section(StringBuilder out, String title, String body) {
        if (body == null) {
            return;
        }
        if (!out.isEmpty()) {
            out.append('\n');
        }
        out.append("== ").append(title).append(" ==\n").append(body);
        if (!body.endsWith("\n")) {
            out.append('\n');
        }
    }

    /** The sections of an explain text by their titles ({@code == Title ==} lines). */
    private static Map<String, String> sections(String text) {
        Map<String, String> out = new LinkedHashMap<>();
        String title = null;
        StringBuilder body = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            if (line.startsWith("== ") && line.endsWith(" ==") && line.length() > 6) {
                if (title != null) {
                    out.put(title, body.toString());
                }
                title = line.substring(3, line.length() - 3);
                body.setLength(0);
            } else if (title != null) {
                body.append(line).append('\n');
            }
        }
        if (title != null) {
            out.put(title, body.toString().stripTrailing() + "\n");
        }
        return out;
    }
}
