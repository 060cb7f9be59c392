package io.sluice.logical.function;

import static java.util.Objects.requireNonNull;

import io.sluice.common.NameSuggestions;
import io.sluice.common.SluiceException;
import io.sluice.logical.expr.Expr;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The built-in functions by Spark name, shared by SQL, the DataFrame API and the Spark Connect
 * endpoint: each front end turns a call it parsed, {@code (name, arguments)}, into an expression
 * here, so all three get the same functions, arity and type errors and "did you mean" for a
 * misspelt name. Names are case-insensitive; aliases ({@code ucase}, {@code power}, {@code every})
 * call the same function.
 *
 * <p>A call becomes the expression that describes it: an existing expression where one exists
 * ({@code upper} a {@code ScalarFunction}, {@code nvl} a {@code CASE}, {@code sum} an
 * {@code AggregateCall}), else a {@link FunctionCall} that operators evaluate by name. Arity is
 * checked when the call is made; argument types when the expression is typed against its input
 * (the plan node that holds it does that when it is built).
 *
 * <p>Immutable and thread-safe. {@link #withContext} gives a library whose zone-dependent functions
 * read the session's time zone.
 */
public final class FunctionLibrary {
    private static final FunctionLibrary BUILT_IN = new FunctionLibrary(definitions(), CallContext.utc());

    private final Map<String, FunctionDefinition> byName; // lower-case names and aliases
    private final List<FunctionInfo> functions; // by name
    private final CallContext context;

    private FunctionLibrary(Map<String, FunctionDefinition> byName, CallContext context) {
        this.byName = byName;
        this.context = requireNonNull(context, "context is null");
        List<FunctionInfo> infos = new ArrayList<>();
        byName.forEach((name, d) -> {
            if (d.info().name().equals(name)) {
                infos.add(d.info());
            }
        });
        infos.sort(Comparator.comparing(FunctionInfo::name));
        this.functions = Collections.unmodifiableList(infos);
    }

    /** The built-in functions, zone-dependent ones in UTC. */
    public static FunctionLibrary builtIn() {
        return BUILT_IN;
    }

    /** The same functions, calls made with {@code context}'s time zone and current instant. */
    public FunctionLibrary withContext(CallContext context) {
        return new FunctionLibrary(byName, context);
    }

    /** What this library's calls depend on beyond their arguments. */
    public CallContext context() {
        return context;
    }

    /**
     * The expression of a call of {@code name} (any case, or an alias) on {@code args}: a scalar
     * expression, or an {@code AggregateCall} for an aggregate function.
     *
     * @throws SluiceException for an unknown name (with the closest known one), or a wrong number
     *         of arguments (with the function's usage)
     */
    public Expr call(String name, List<Expr> args) {
        requireNonNull(args, "args is null");
        FunctionDefinition definition = definition(name);
        String canonical = definition.info().name();
        definition.signature().checkArity(canonical, args.size());
        return definition.builder().build(canonical, List.copyOf(args), context);
    }

    /** Whether {@code name} is a built-in function at all. */
    public boolean contains(String name) {
        return byName.containsKey(name.toLowerCase(Locale.ROOT));
    }

    /** Whether {@code name} is a built-in aggregate function (false for an unknown name). */
    public boolean isAggregate(String name) {
        FunctionDefinition d = byName.get(name.toLowerCase(Locale.ROOT));
        return d != null && d.info().kind() == FunctionInfo.Kind.AGGREGATE;
    }

    /** What {@code DESCRIBE FUNCTION name} says, if {@code name} is a function. */
    public Optional<FunctionInfo> info(String name) {
        return Optional.ofNullable(byName.get(name.toLowerCase(Locale.ROOT))).map(FunctionDefinition::info);
    }

    /** What {@code DESCRIBE FUNCTION name} says; an unknown name fails as {@link #call} does. */
    public FunctionInfo describe(String name) {
        return definition(name).info();
    }

    /** Every function once, by name (aliases inside each). */
    public List<FunctionInfo> functions() {
        return functions;
    }

    /** The definition of {@code name}; fails for an unknown one, suggesting the closest name. */
    FunctionDefinition definition(String name) {
        FunctionDefinition d = byName.get(name.toLowerCase(Locale.ROOT));
        if (d == null) {
            throw new SluiceException("unknown function '" + name + "';"
                    + NameSuggestions.didYouMean(name, byName.keySet()) + " SHOW FUNCTIONS lists them");
        }
        return d;
    }

    private static Map<String, FunctionDefinition> definitions() {
        Registrar r = new Registrar();
        CoreFunctions.register(r);
        StringFunctions.register(r);
        DateTimeFunctions.register(r);
        MathFunctions.register(r);
        ConditionalFunctions.register(r);
        HigherOrderFunctions.register(r);
        AggregateFunctions.register(r);
        Map<String, FunctionDefinition> out = new LinkedHashMap<>();
        for (FunctionDefinition d : r.definitions()) {
            put(out, d.info().name(), d);
            d.info().aliases().forEach(alias -> put(out, alias, d));
        }
        return Collections.unmodifiableMap(out);
    }

    private static void put(Map<String, FunctionDefinition> out, String name, FunctionDefinition d) {
        if (out.putIfAbsent(name, d) != null) {
            throw new IllegalStateException("function " + name + " is defined twice");
        }
    }
}
