package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.kernels.Kernels;
import io.sluice.kernels.NestedValues;
import io.sluice.logical.expr.HigherOrderCall;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link HigherOrderCall} over bound arguments. Each lambda's body is evaluated once per batch
 * over the flattened elements of all its rows ({@link Elements}, {@link BoundLambda}); only
 * {@code aggregate}, whose merge depends on the previous step, runs once per element position, over
 * the rows that have an element there.
 */
record HigherOrderExpr(HigherOrderCall source, List<PhysicalExpr> values, List<BoundLambda> lambdas, DataType type)
        implements PhysicalExpr {
    HigherOrderExpr {
        requireNonNull(source, "source is null");
        values = List.copyOf(values);
        lambdas = List.copyOf(lambdas);
        requireNonNull(type, "type is null");
    }

    static HigherOrderExpr bind(HigherOrderCall call, Schema input, DataType type) {
        int first = call.firstLambda();
        List<BoundLambda> lambdas = new ArrayList<>();
        for (int i = first; i < call.args().size(); i++) {
            lambdas.add(BoundLambda.bind(call.lambda(i), call.parameterTypes(i, input), input));
        }
        return new HigherOrderExpr(call, ExprBinder.bindAll(call.args().subList(0, first), input), lambdas, type);
    }

    @Override
    public Col evaluate(Batch batch) {
        Col container = values.get(0).evaluate(batch);
        return switch (source.function()) {
            case TRANSFORM -> transform(batch, container);
            case FILTER -> filter(batch, container);
            case EXISTS -> quantified(batch, container, true);
            case FORALL -> quantified(batch, container, false);
            case AGGREGATE -> aggregate(batch, container);
            case ZIP_WITH -> zipWith(batch, container, values.get(1).evaluate(batch));
            case MAP_FILTER, TRANSFORM_KEYS, TRANSFORM_VALUES -> mapFunction(batch, container);
        };
    }

    /** The lambda's values over the elements, with their indexes when it takes two parameters. */
    private Col applyToElements(Batch batch, Elements elements, DataType elementType) {
        BoundLambda lambda = lambdas.get(0);
        Col x = elements.column(elementType);
        return lambda.schema().size() - lambda.outerIndexes().length == 2
                ? lambda.apply(batch, elements.rows(), elements.count(), x, elements.indexes())
                : lambda.apply(batch, elements.rows(), elements.count(), x);
    }

    private Col transform(Batch batch, Col arrays) {
        Elements elements = Elements.of(arrays);
        return lists(applyToElements(batch, elements, arrays.type.elementType()), elements.starts(), arrays.nulls);
    }

    /** Row {@code r}'s array: {@code values} {@code starts[r]..starts[r + 1]}; NULL where {@code nulls} says. */
    private Col lists(Col values, int[] starts, boolean[] nulls) {
        Object[] out = new Object[starts.length - 1];
        for (int r = 0; r < out.length; r++) {
            if (nulls == null || !nulls[r]) {
                Object[] list = new Object[starts[r + 1] - starts[r]];
                for (int k = 0; k < list.length; k++) {
                    list[k] = values.get(starts[r] + k);
                }
                out[r] = Collections.unmodifiableList(Arrays.asList(list));
            }
        }
        return Col.ofObjects(type, out, nulls);
    }

    private Col filter(Batch batch, Col arrays) {
        Elements elements = Elements.of(arrays);
        Col keep = applyToElements(batch, elements, arrays.type.elementType());
        Object[] out = new Object[arrays.length];
        for (int r = 0; r < out.length; r++) {
            if (!arrays.isNull(r)) {
                List<Object> list = new ArrayList<>();
                for (int k = elements.starts()[r]; k < elements.starts()[r + 1]; k++) {
                    if (keep.bools[k] && !keep.isNull(k)) {
                        list.add(elements.values()[k]);
                    }
                }
                out[r] = Collections.unmodifiableList(list);
            }
        }
        return Col.ofObjects(type, out, arrays.nulls);
    }

    /** exists ({@code any}) or forall: decided by an element equal to {@code any}, else NULL if one is NULL. */
    private Col quantified(Batch batch, Col arrays, boolean any) {
        Elements elements = Elements.of(arrays);
        Col result = applyToElements(batch, elements, arrays.type.elementType());
        Col out = Col.allocate(DataType.BOOL, arrays.length, true);
        for (int r = 0; r < arrays.length; r++) {
            if (arrays.isNull(r)) {
                out.nulls[r] = true;
                continue;
            }
            boolean decided = false;
            boolean sawNull = false;
            for (int k = elements.starts()[r]; k < elements.starts()[r + 1] && !decided; k++) {
                sawNull |= result.isNull(k);
                decided = !result.isNull(k) && result.bools[k] == any;
            }
            out.bools[r] = decided == any;
            out.nulls[r] = !decided && sawNull;
        }
        return out;
    }

    private Col zipWith(Batch batch, Col left, Col right) {
        int rows = left.length;
        int[] starts = new int[rows + 1];
        for (int r = 0; r < rows; r++) {
            int size = left.isNull(r) || right.isNull(r) ? 0
                    : Math.max(((List<?>) left.objects[r]).size(), ((List<?>) right.objects[r]).size());
            starts[r + 1] = starts[r] + size;
        }
        int count = starts[rows];
        int[] owners = new int[count];
        Object[] xs = new Object[count];
        Object[] ys = new Object[count];
        for (int r = 0; r < rows; r++) {
            for (int k = starts[r]; k < starts[r + 1]; k++) {
                owners[k] = r;
                xs[k] = elementOrNull((List<?>) left.objects[r], k - starts[r]);
                ys[k] = elementOrNull((List<?>) right.objects[r], k - starts[r]);
            }
        }
        Col result = lambdas.get(0).apply(batch, owners, count, NestedValues.of(left.type.elementType(), xs),
                NestedValues.of(right.type.elementType(), ys));
        boolean[] nulls = new boolean[rows];
        for (int r = 0; r < rows; r++) {
            nulls[r] = left.isNull(r) || right.isNull(r);
        }
        return lists(result, starts, nulls);
    }

    private static Object elementOrNull(List<?> list, int index) {
        return index < list.size() ? list.get(index) : null;
    }

    /**
     * {@code aggregate}: the accumulators of the rows with a k-th element are merged with it, for k
     * from 0 to the longest array's end, each step one evaluation of the merge over those rows.
     */
    private Col aggregate(Batch batch, Col arrays) {
        int rows = arrays.length;
        DataType accType = lambdas.get(0).schema().field(lambdas.get(0).outerIndexes().length).type();
        Col zero = values.get(1).evaluate(batch);
        Object[] acc = new Object[rows];
        int longest = 0;
        for (int r = 0; r < rows; r++) {
            acc[r] = zero.get(r);
            longest = arrays.isNull(r) ? longest : Math.max(longest, ((List<?>) arrays.objects[r]).size());
        }
        Col start = NestedValues.of(accType, acc);
        for (int r = 0; r < rows; r++) {
            acc[r] = start.get(r);
        }
        int[] active = new int[rows];
        DataType elementType = arrays.type.elementType();
        for (int k = 0; k < longest; k++) {
            int count = 0;
            for (int r = 0; r < rows; r++) {
                if (!arrays.isNull(r) && ((List<?>) arrays.objects[r]).size() > k) {
                    active[count++] = r;
                }
            }
            Object[] accs = new Object[count];
            Object[] xs = new Object[count];
            for (int i = 0; i < count; i++) {
                accs[i] = acc[active[i]];
                xs[i] = ((List<?>) arrays.objects[active[i]]).get(k);
            }
            Col merged = fit(lambdas.get(0).apply(batch, active, count, NestedValues.of(accType, accs),
                    NestedValues.of(elementType, xs)), accType);
            for (int i = 0; i < count; i++) {
                acc[active[i]] = merged.get(i);
            }
        }
        int count = 0;
        for (int r = 0; r < rows; r++) {
            if (!arrays.isNull(r)) {
                active[count++] = r;
            }
        }
        Object[] results = new Object[rows];
        if (lambdas.size() == 1) {
            for (int i = 0; i < count; i++) {
                results[active[i]] = acc[active[i]];
            }
            return NestedValues.of(type, results);
        }
        Object[] accs = new Object[count];
        for (int i = 0; i < count; i++) {
            accs[i] = acc[active[i]];
        }
        Col finished = lambdas.get(1).apply(batch, active, count, NestedValues.of(accType, accs));
        for (int i = 0; i < count; i++) {
            results[active[i]] = finished.get(i);
        }
        return NestedValues.of(type, results);
    }

    private static Col fit(Col values, DataType type) {
        return values.type.equals(type) || values.type.kind() == DataType.Kind.NULL && values.length == 0 ? values
                : values.type.kind() == DataType.Kind.NULL ? Col.allNull(type, values.length) : Kernels.cast(values, type);
    }

    private Col mapFunction(Batch batch, Col maps) {
        Elements entries = Elements.of(maps);
        DataType mapType = maps.type;
        Col keys = entries.column(mapType.keyType());
        Col result = lambdas.get(0).apply(batch, entries.rows(), entries.count(), keys, entries.valueColumn(mapType.valueType()));
        Object[] out = new Object[maps.length];
        for (int r = 0; r < out.length; r++) {
            if (maps.isNull(r)) {
                continue;
            }
            Map<Object, Object> map = new LinkedHashMap<>();
            for (int k = entries.starts()[r]; k < entries.starts()[r + 1]; k++) {
                switch (source.function()) {
                    case MAP_FILTER -> {
                        if (result.bools[k] && !result.isNull(k)) {
                            map.put(entries.values()[k], entries.mapValues()[k]);
                        }
                    }
                    case TRANSFORM_KEYS -> {
                        Object key = result.get(k);
                        if (key == null) {
                            throw new SluiceException("[NULL_MAP_KEY] Cannot use null as map key (transform_keys: "
                                    + source.lambda(1) + ")");
                        }
                        if (map.containsKey(key)) {
                            throw new SluiceException("[DUPLICATED_MAP_KEY] Duplicate map key " + key
                                    + " was found (transform_keys: " + source.lambda(1) + ")");
                        }
                        map.put(key, entries.mapValues()[k]);
                    }
                    default -> map.put(entries.values()[k], result.get(k));
                }
            }
            out[r] = Collections.unmodifiableMap(map);
        }
        return Col.ofObjects(type, out, maps.nulls);
    }

    @Override
    public String toString() {
        return source.function().sqlName() + values + lambdas;
    }
}
