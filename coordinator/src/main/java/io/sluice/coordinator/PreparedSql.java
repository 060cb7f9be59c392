package io.sluice.coordinator;

import io.sluice.common.SluiceException;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.wire.PlanJson;
import java.util.Map;

/**
 * A SQL script after its statements ran up to the last one: when that is a query, its plan (not run
 * yet) with the settings the script's {@code SET}s made; otherwise the last statement's result as an
 * Arrow IPC stream. Travels to remote clients in {@link #toWire()} form: one byte {@code 'P'} and a
 * {@link PlanJson} request, or {@code 'R'} and the Arrow IPC stream (no Kryo on the client API).
 */
public record PreparedSql(LogicalPlan plan, Map<String, String> settings, byte[] result) {
    public PreparedSql {
        if ((plan == null) == (result == null)) {
            throw new IllegalArgumentException("exactly one of plan and result must be given");
        }
        settings = Map.copyOf(settings);
    }

    static PreparedSql query(LogicalPlan plan, Map<String, String> settings) {
        return new PreparedSql(plan, settings, null);
    }

    static PreparedSql done(byte[] result) {
        return done(result, Map.of());
    }

    /**
     * A result, with the settings the script's {@code SET}s made for an in-process caller that keeps
     * them per session (Spark Connect); the wire form of a result does not carry them.
     */
    static PreparedSql done(byte[] result, Map<String, String> settings) {
        return new PreparedSql(null, settings, result);
    }

    private static final byte PLAN = 'P';
    private static final byte RESULT = 'R';

    /** This prepared script as the bytes {@code POST /v1/prepare} answers with. */
    public byte[] toWire() {
        byte[] body = plan != null ? PlanJson.encode(new PlanJson.Request(plan, settings, null)) : result;
        byte[] out = new byte[body.length + 1];
        out[0] = plan != null ? PLAN : RESULT;
        System.arraycopy(body, 0, out, 1, body.length);
        return out;
    }

    /** Reads what {@link #toWire()} wrote. */
    public static PreparedSql fromWire(byte[] wire) {
        if (wire.length == 0 || (wire[0] != PLAN && wire[0] != RESULT)) {
            throw new SluiceException("malformed answer from the coordinator to a prepare request");
        }
        byte[] body = java.util.Arrays.copyOfRange(wire, 1, wire.length);
        if (wire[0] == RESULT) {
            return done(body);
        }
        PlanJson.Request request = PlanJson.decodeRequest(body);
        return query(request.plan(), request.settings());
    }
}
