package io.sluice.bench.tpch;

import java.util.List;

/** One TPC-H query's outcome on each engine, filled in as the engines run; {@link TpchReport} prints it. */
final class TpchResult {
    final int query;
    double sluiceMedianMs = Double.NaN;
    /** Shuffle fetch wait over task time in the measured runs (embedded cluster only; NaN otherwise). */
    double fetchWaitShare = Double.NaN;
    /** Time the query's tasks waited on reads per run, summed over tasks ({@code ReadWaits}); NaN if not run. */
    double readWaitMs = Double.NaN;
    long rows = -1;
    String error;
    List<List<Object>> answer;
    double duckdbMedianMs = Double.NaN;
    List<List<Object>> duckdbAnswer;
    String agreement;
    double sparkMedianMs = Double.NaN;
    String sparkAgreement;
    boolean sparkComparedWithSluice;
    /** The same query on workers of --memory (null without it); its agreement is with DuckDB. */
    TpchResult limited;
    /** The same query on the local copy of the files (null without --versus-local). */
    TpchResult local;
    /** Object-store requests per run by kind, as "GET=12 HEAD=0 LIST=2" (null when none were made). */
    String requests;
    /** Bytes the measured runs spilled and the largest memory one task held (embedded cluster only). */
    long spilledBytes = -1;
    long peakTaskMemory = -1;

    TpchResult(int query) {
        this.query = query;
    }
}
