package io.sluice.logical.function;

import io.sluice.logical.function.FunctionDefinition.Builder;
import io.sluice.logical.function.FunctionDefinition.ResultType;
import io.sluice.logical.function.FunctionInfo.Kind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Collects the definitions of the function families. Names are given as {@code "name|alias|..."},
 * the Spark name first.
 */
final class Registrar {
    private final List<FunctionDefinition> definitions = new ArrayList<>();

    /** A function evaluated as a {@link FunctionCall} of its Spark name, typed by {@code result}. */
    void evaluated(String names, Signature signature, String description, ResultType result) {
        add(names, Kind.SCALAR, signature, description,
                (name, args, context) -> new FunctionCall(name, args, context.timeZone()), result);
    }

    /**
     * A function evaluated as a {@link FunctionCall}, typed by {@code result}, whose {@code builder}
     * may express some calls with other expressions instead (a faster form for common arguments).
     */
    void evaluated(String names, Signature signature, String description, ResultType result, Builder builder) {
        add(names, Kind.SCALAR, signature, description, builder, result);
    }

    /** A scalar function whose call {@code builder} expresses with other expressions. */
    void rewritten(String names, Signature signature, String description, Builder builder) {
        add(names, Kind.SCALAR, signature, description, builder, null);
    }

    /** An aggregate function; {@code builder} makes its {@code AggregateCall}. */
    void aggregate(String names, Signature signature, String description, Builder builder) {
        add(names, Kind.AGGREGATE, signature, description, builder, null);
    }

    private void add(String names, Kind kind, Signature signature, String description, Builder builder, ResultType result) {
        List<String> all = Arrays.asList(names.split("\\|"));
        String name = all.get(0);
        FunctionInfo info = new FunctionInfo(name, all.subList(1, all.size()), kind, signature.usage(name), description);
        definitions.add(new FunctionDefinition(info, signature, builder, result));
    }

    List<FunctionDefinition> definitions() {
        return definitions;
    }
}
