package io.sluice.wire;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.AddInterval;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Case;
import io.sluice.logical.expr.Cast;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.DateTrunc;
import io.sluice.logical.expr.Extract;
import io.sluice.logical.expr.GroupingCall;
import io.sluice.logical.expr.HigherOrderCall;
import io.sluice.logical.expr.Lambda;
import io.sluice.logical.expr.LambdaVariable;
import io.sluice.logical.expr.InList;
import io.sluice.logical.expr.Like;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.OuterColumn;
import io.sluice.logical.expr.RegexMatch;
import io.sluice.logical.expr.ScalarFunction;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.expr.Substring;
import io.sluice.logical.expr.Unary;
import io.sluice.logical.expr.UserFunctionCall;
import io.sluice.logical.expr.UserJar;
import io.sluice.logical.expr.WindowCall;
import io.sluice.logical.expr.WindowFrame;
import io.sluice.logical.function.FunctionCall;
import io.sluice.logical.plan.Aggregate;
import io.sluice.logical.plan.BroadcastHint;
import io.sluice.logical.plan.EmptyRelation;
import io.sluice.logical.plan.Exists;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.Generate;
import io.sluice.logical.plan.GroupingSetChoice;
import io.sluice.logical.plan.InSubquery;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.JoinMark;
import io.sluice.logical.plan.Limit;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.logical.plan.RangeRelation;
import io.sluice.logical.plan.QuantifiedComparison;
import io.sluice.logical.plan.Repartition;
import io.sluice.logical.plan.Sample;
import io.sluice.logical.plan.ScalarSubquery;
import io.sluice.logical.plan.SharedSubplan;
import io.sluice.logical.plan.Sort;
import io.sluice.logical.plan.SortWithinPartitions;
import io.sluice.logical.plan.SubqueryAlias;
import io.sluice.logical.plan.TableScan;
import io.sluice.logical.plan.Union;
import io.sluice.logical.plan.Window;
import io.sluice.logical.sink.WriteTarget;
import io.sluice.logical.source.TableSource;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The client-to-coordinator wire format for logical plans: JSON, versioned, read without any
 * class named by the client. Documented in {@code docs/security.md} ("Plan wire format").
 *
 * <p>A document is {@code {"version": 1, "plan": NODE}}. Every node or expression is an object
 * whose {@code "@type"} is one of {@link #TYPES} (simple names) and whose other fields are the
 * record's components by name: plans, expressions and the small records they hold are objects,
 * enums their constant names, lists arrays, strings, booleans and integers plain JSON. A
 * {@code schema} that a node derives from its inputs (projection, aggregate, join, alias, scan) is
 * not sent: the coordinator derives it again, so type checks run on the coordinator's side. A
 * literal's value is a number, string, boolean or null, or {@code "NaN"}, {@code "Infinity"},
 * {@code "-Infinity"} for those doubles. Another version is refused with "unsupported plan version".
 */
public final class PlanJson {
    public static final int VERSION = 1;
    public static final String MEDIA_TYPE = "application/vnd.sluice.plan+json";
    /** Deeper JSON is refused by the parser before it is built into a tree. */
    static final int MAX_NESTING = 600;
    /** Names an object's type; no record component can be called this. */
    static final String TYPE_KEY = "@type";

    /** The only classes a document may name, by simple name. */
    static final Map<String, Class<? extends Record>> TYPES = types(
            // logical plans
            Aggregate.class, EmptyRelation.class, Filter.class, Join.class, Limit.class, Projection.class,
            Sort.class, SortWithinPartitions.class, Repartition.class, BroadcastHint.class, SubqueryAlias.class, TableScan.class, Union.class, Window.class, Generate.class, GroupingSetChoice.class, SharedSubplan.class, Sample.class, RangeRelation.class,
            // expressions
            AddInterval.class, AggregateCall.class, Alias.class, Binary.class, Case.class, Cast.class,
            Column.class, Exists.class, Extract.class, InSubquery.class, InList.class, Like.class, RegexMatch.class, Literal.class,
            OuterColumn.class, ScalarFunction.class, ScalarSubquery.class, Substring.class, Unary.class,
            DateTrunc.class, GroupingCall.class, QuantifiedComparison.class, WindowCall.class, FunctionCall.class,
            UserFunctionCall.class, HigherOrderCall.class, Lambda.class, LambdaVariable.class,
            // what they hold
            UserJar.class,
            JoinMark.class, WindowFrame.class, WindowFrame.Bound.class, SortKey.class, TableSource.class, Schema.class, Field.class, DataType.class, WriteTarget.class);

    /**
     * A request to run a plan: the plan, the settings to run it with ({@code SET} names and values),
     * and for a write where its result goes (null: return the rows).
     */
    public record Request(LogicalPlan plan, Map<String, String> settings, WriteTarget target) {
        public Request {
            requireNonNull(plan, "plan is null");
            settings = Map.copyOf(settings);
        }
    }

    private static final ObjectMapper MAPPER = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING)
                    .maxStringLength(1 << 20).maxNumberLength(64).build())
            .build());

    private PlanJson() {
    }

    @SafeVarargs
    private static Map<String, Class<? extends Record>> types(Class<? extends Record>... classes) {
        Map<String, Class<? extends Record>> out = new LinkedHashMap<>();
        for (Class<? extends Record> c : classes) {
            if (out.put(c.getSimpleName(), c) != null) {
                throw new IllegalStateException("two wire types named " + c.getSimpleName());
            }
        }
        return Map.copyOf(out);
    }

    /** The plan as a version-{@value #VERSION} document, UTF-8. */
    public static byte[] encode(LogicalPlan plan) {
        return encode(new Request(plan, Map.of(), null));
    }

    /**
     * A request as a version-{@value #VERSION} document: the plan, plus {@code "settings"} (an object
     * of strings) and {@code "write"} (a {@code WriteTarget}) when present.
     */
    public static byte[] encode(Request request) {
        requireNonNull(request, "request is null");
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("version", VERSION);
        root.set("plan", write(request.plan()));
        if (!request.settings().isEmpty()) {
            ObjectNode settings = root.putObject("settings");
            new java.util.TreeMap<>(request.settings()).forEach(settings::put);
        }
        if (request.target() != null) {
            root.set("write", write(request.target()));
        }
        try {
            return MAPPER.writeValueAsBytes(root);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write a plan as JSON", e);
        }
    }

    /**
     * Reads a document from a client.
     *
     * @throws SluiceException naming what is wrong: not JSON, another version, an unknown type, a
     *                         missing or ill-typed field, or a plan its own constructors refuse
     */
    public static LogicalPlan decode(byte[] document) {
        return decodeRequest(document).plan();
    }

    /** Reads a request document from a client; see {@link #decode} for its errors. */
    public static Request decodeRequest(byte[] document) {
        requireNonNull(document, "document is null");
        JsonNode root;
        try {
            root = MAPPER.readTree(document);
        } catch (IOException e) {
            throw new SluiceException("malformed plan: not a JSON document (" + firstLine(e.getMessage()) + ")");
        }
        if (root == null || !root.isObject()) {
            throw new SluiceException("malformed plan: expected a JSON object with \"version\" and \"plan\"");
        }
        JsonNode version = root.get("version");
        if (version == null || !version.isIntegralNumber()) {
            throw new SluiceException("malformed plan: no integer \"version\" field (this coordinator reads version "
                    + VERSION + ")");
        }
        if (version.asLong() != VERSION) {
            throw new SluiceException("unsupported plan version " + version.asText() + " (this coordinator reads version "
                    + VERSION + ")");
        }
        try {
            LogicalPlan plan = (LogicalPlan) read(root.get("plan"), LogicalPlan.class, "plan");
            Map<String, String> settings = new LinkedHashMap<>();
            JsonNode given = root.get("settings");
            if (given != null && !given.isNull()) {
                if (!given.isObject()) {
                    throw new SluiceException("malformed plan: \"settings\" must be an object of strings");
                }
                for (var it = given.fields(); it.hasNext(); ) {
                    var e = it.next();
                    if (!e.getValue().isTextual()) {
                        throw new SluiceException("malformed plan: setting " + e.getKey() + " must be a string");
                    }
                    settings.put(e.getKey(), e.getValue().asText());
                }
            }
            JsonNode write = root.get("write");
            WriteTarget target = write == null || write.isNull() ? null : (WriteTarget) read(write, WriteTarget.class, "write");
            return new Request(plan, settings, target);
        } catch (StackOverflowError e) {
            throw new SluiceException("query too complex: the plan nests too deeply");
        }
    }

    // ---- writing

    private static JsonNode write(Object value) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        if (value == null) {
            return f.nullNode();
        }
        if (value instanceof String s) {
            return f.textNode(s);
        }
        if (value instanceof Boolean b) {
            return f.booleanNode(b);
        }
        if (value instanceof Integer i) {
            return f.numberNode(i);
        }
        if (value instanceof Long l) {
            return f.numberNode(l);
        }
        if (value instanceof java.math.BigInteger b) {
            return f.numberNode(b); // a decimal constant past a long (precision 19 to 38)
        }
        if (value instanceof Double d) {
            return Double.isFinite(d) ? f.numberNode(d) : f.textNode(d.toString());
        }
        if (value instanceof Enum<?> e) {
            return f.textNode(e.name());
        }
        if (value instanceof byte[] bytes) {
            return f.textNode(java.util.Base64.getEncoder().encodeToString(bytes)); // a user function's jar
        }
        if (value instanceof Map<?, ?> map) {
            ObjectNode object = f.objectNode();
            new java.util.TreeMap<>(map).forEach((k, v) -> object.set((String) k, write(v)));
            return object;
        }
        if (value instanceof List<?> list) {
            ArrayNode array = f.arrayNode();
            list.forEach(v -> array.add(write(v)));
            return array;
        }
        if (value instanceof Record record && TYPES.get(record.getClass().getSimpleName()) == record.getClass()) {
            ObjectNode object = f.objectNode();
            object.put(TYPE_KEY, record.getClass().getSimpleName());
            for (RecordComponent c : wireComponents(record.getClass())) {
                try {
                    object.set(c.getName(), write(c.getAccessor().invoke(record)));
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("cannot read " + c, e);
                }
            }
            return object;
        }
        throw new SluiceException("a " + value.getClass().getName() + " cannot be sent in a plan");
    }

    // ---- reading

    private static Object read(JsonNode node, Type declared, String path) {
        Class<?> raw = rawClass(declared);
        if (node == null || node.isNull()) {
            if (raw.isPrimitive()) {
                throw bad(path, "is missing");
            }
            return null;
        }
        if (raw == String.class) {
            return expect(node.isTextual(), node, path, "a string").asText();
        }
        if (raw == boolean.class || raw == Boolean.class) {
            return expect(node.isBoolean(), node, path, "true or false").asBoolean();
        }
        if (raw == int.class || raw == Integer.class) {
            return expect(node.isIntegralNumber() && node.canConvertToInt(), node, path, "an int").asInt();
        }
        if (raw == long.class || raw == Long.class) {
            return expect(node.isIntegralNumber() && node.canConvertToLong(), node, path, "a long").asLong();
        }
        if (raw == byte[].class) {
            try {
                return java.util.Base64.getDecoder().decode(expect(node.isTextual(), node, path, "base64 text").asText());
            } catch (IllegalArgumentException e) {
                throw bad(path, "is not base64: " + e.getMessage());
            }
        }
        if (raw == double.class || raw == Double.class) {
            return expect(node.isNumber(), node, path, "a number").asDouble();
        }
        if (raw == Object.class) {
            return literalValue(node, path);
        }
        if (raw.isEnum()) {
            String name = expect(node.isTextual(), node, path, "a constant name").asText();
            for (Object constant : raw.getEnumConstants()) {
                if (((Enum<?>) constant).name().equals(name)) {
                    return constant;
                }
            }
            throw bad(path, "'" + name + "' is not one of " + Arrays.toString(raw.getEnumConstants()));
        }
        if (raw == List.class) {
            expect(node.isArray(), node, path, "an array");
            Type element = ((ParameterizedType) declared).getActualTypeArguments()[0];
            List<Object> out = new ArrayList<>(node.size());
            for (int i = 0; i < node.size(); i++) {
                Object v = read(node.get(i), element, path + "[" + i + "]");
                if (v == null) {
                    throw bad(path + "[" + i + "]", "is null");
                }
                out.add(v);
            }
            return List.copyOf(out);
        }
        if (raw == Map.class) {
            return readStringMap(node, path);
        }
        return readRecord(node, raw, path);
    }

    /** A map of strings (a table's format options) as an object of strings. */
    private static Map<String, String> readStringMap(JsonNode node, String path) {
        expect(node.isObject(), node, path, "an object of strings");
        Map<String, String> out = new LinkedHashMap<>();
        for (var it = node.fields(); it.hasNext(); ) {
            var e = it.next();
            out.put(e.getKey(), expect(e.getValue().isTextual(), e.getValue(), path + "." + e.getKey(), "a string").asText());
        }
        return out;
    }

    private static Object readRecord(JsonNode node, Class<?> declared, String path) {
        expect(node.isObject(), node, path, "an object");
        JsonNode typeNode = node.get(TYPE_KEY);
        if (typeNode == null || !typeNode.isTextual()) {
            throw bad(path, "has no \"" + TYPE_KEY + "\"");
        }
        Class<? extends Record> type = TYPES.get(typeNode.asText());
        if (type == null || !declared.isAssignableFrom(type)) {
            throw bad(path, "type '" + typeNode.asText() + "' is not a " + declared.getSimpleName()
                    + " this format knows");
        }
        List<RecordComponent> components = wireComponents(type);
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!name.equals(TYPE_KEY) && components.stream().noneMatch(c -> c.getName().equals(name))) {
                throw bad(path, "a " + type.getSimpleName() + " has no field '" + name + "'");
            }
        }
        Object[] args = new Object[components.size()];
        Class<?>[] types = new Class<?>[components.size()];
        for (int i = 0; i < args.length; i++) {
            RecordComponent c = components.get(i);
            types[i] = c.getType();
            args[i] = read(node.get(c.getName()), c.getGenericType(), path + "." + c.getName());
        }
        try {
            Constructor<?> constructor = type.getConstructor(types);
            return constructor.newInstance(args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof SluiceException s) {
                throw s;
            }
            throw bad(path, "is not a valid " + type.getSimpleName() + ": " + cause.getMessage());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("no public constructor for " + type.getSimpleName(), e);
        }
    }

    private static Object literalValue(JsonNode node, String path) {
        if (node.isTextual()) {
            return switch (node.asText()) {
                case "NaN" -> Double.NaN;
                case "Infinity" -> Double.POSITIVE_INFINITY;
                case "-Infinity" -> Double.NEGATIVE_INFINITY;
                default -> node.asText();
            };
        }
        if (node.isBoolean()) {
            return node.asBoolean();
        }
        if (node.isIntegralNumber()) {
            return node.canConvertToLong() ? (Object) node.asLong() : node.bigIntegerValue();
        }
        if (node.isFloatingPointNumber()) {
            return node.asDouble();
        }
        throw bad(path, "is not a literal value");
    }

    /**
     * A record's components on the wire: all of them, except a trailing {@code schema} the record
     * derives through a public constructor taking the others.
     */
    static List<RecordComponent> wireComponents(Class<?> type) {
        List<RecordComponent> all = List.of(type.getRecordComponents());
        if (all.size() > 1 && all.get(all.size() - 1).getName().equals("schema")) {
            List<RecordComponent> rest = all.subList(0, all.size() - 1);
            try {
                type.getConstructor(rest.stream().map(RecordComponent::getType).toArray(Class<?>[]::new));
                return rest;
            } catch (NoSuchMethodException e) {
                return all;
            }
        }
        return all;
    }

    private static Class<?> rawClass(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType p) {
            return (Class<?>) p.getRawType();
        }
        throw new IllegalStateException("unsupported component type " + type);
    }

    private static JsonNode expect(boolean ok, JsonNode node, String path, String what) {
        if (!ok) {
            throw bad(path, "should be " + what + ", not " + node.getNodeType().name().toLowerCase(java.util.Locale.ROOT));
        }
        return node;
    }

    private static SluiceException bad(String path, String what) {
        return new SluiceException("malformed plan: " + path + " " + what);
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
