package io.sluice.cluster.serialization;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Kryo serializers for the JDK's read-only collections, whose classes are private and have no
 * no-argument constructor, so that Kryo's field-by-field fallback either cannot reach them (Java 17
 * encapsulation) or rebuilds them broken.
 *
 * <p>Guarantees: a read collection equals the written one, keeps its iteration order and is again
 * read-only. {@code List.of}/{@code List.copyOf}/{@code Stream.toList} come back as JDK immutable
 * lists (a list holding nulls, which only {@code Stream.toList} makes, comes back via {@code
 * Stream.toList}); {@code Collections.unmodifiable*} come back wrapping a {@code LinkedHashSet},
 * {@code LinkedHashMap} or {@code ArrayList}; {@code Arrays.asList} comes back over an {@code
 * Object[]}. {@code Set.of}/{@code Map.of} come back as
 * {@code Set.of}/{@code Map.copyOf}; the {@code Collections.empty*}/{@code singleton*} classes use
 * Kryo's own serializers, which already round-trip. Every element count read is checked against
 * the message before anything is allocated ({@link BoundedInput}).
 *
 * <p>Caveats: the collection object is created after its elements are read, so an element that
 * refers back to its own containing collection is not supported. Sorted unmodifiable views
 * ({@code unmodifiableSortedSet} and the like) are not covered.
 */
final class JdkCollectionSerializers {
    private JdkCollectionSerializers() {
    }

    /** Adds the serializers as defaults for the concrete JDK classes; later additions win in Kryo. */
    static void register(Kryo kryo) {
        ImmutableListSerializer immutableList = new ImmutableListSerializer();
        kryo.addDefaultSerializer(List.of().getClass(), immutableList);
        kryo.addDefaultSerializer(List.of(1).getClass(), immutableList);
        kryo.addDefaultSerializer(List.of(1, 2, 3).getClass(), immutableList);
        kryo.addDefaultSerializer(List.of(1, 2, 3).subList(0, 2).getClass(), immutableList);
        kryo.addDefaultSerializer(java.util.stream.Stream.of(1, null).toList().getClass(), immutableList);

        UnmodifiableListSerializer unmodifiableList = new UnmodifiableListSerializer();
        kryo.addDefaultSerializer(Collections.unmodifiableList(new ArrayList<>()).getClass(), unmodifiableList);
        kryo.addDefaultSerializer(Collections.unmodifiableList(new LinkedList<>()).getClass(), unmodifiableList);
        kryo.addDefaultSerializer(Collections.unmodifiableSet(new LinkedHashSet<>()).getClass(),
                new UnmodifiableSetSerializer());
        kryo.addDefaultSerializer(Collections.unmodifiableMap(new LinkedHashMap<>()).getClass(),
                new UnmodifiableMapSerializer());
        kryo.addDefaultSerializer(Collections.unmodifiableCollection(new ArrayList<>()).getClass(),
                new UnmodifiableCollectionSerializer());
        kryo.addDefaultSerializer(Arrays.asList().getClass(), new ArraysAsListSerializer());
        ImmutableSetSerializer immutableSet = new ImmutableSetSerializer();
        kryo.addDefaultSerializer(Set.of().getClass(), immutableSet);
        kryo.addDefaultSerializer(Set.of(1).getClass(), immutableSet);
        kryo.addDefaultSerializer(Set.of(1, 2, 3).getClass(), immutableSet);
        ImmutableMapSerializer immutableMap = new ImmutableMapSerializer();
        kryo.addDefaultSerializer(Map.of().getClass(), immutableMap);
        kryo.addDefaultSerializer(Map.of(1, 1).getClass(), immutableMap);
        kryo.addDefaultSerializer(Map.of(1, 1, 2, 2).getClass(), immutableMap);
    }

    private static void writeElements(Kryo kryo, Output output, Collection<?> elements) {
        output.writeVarInt(elements.size(), true);
        for (Object e : elements) {
            kryo.writeClassAndObject(output, e);
        }
    }

    private static Object[] readElements(Kryo kryo, Input input) {
        int size = input.readVarInt(true);
        BoundedInput.of(input).checkLength(size, "collection");
        Object[] elements = new Object[size];
        for (int i = 0; i < size; i++) {
            elements[i] = kryo.readClassAndObject(input);
        }
        return elements;
    }

    /** A serializer for read-only values: {@code copy} may return the original. */
    private abstract static class ReadOnly<T> extends Serializer<T> {
        ReadOnly() {
            super(false, true);
        }
    }

    private static final class ImmutableListSerializer extends ReadOnly<List<?>> {
        @Override
        public void write(Kryo kryo, Output output, List<?> list) {
            writeElements(kryo, output, list);
        }

        @Override
        public List<?> read(Kryo kryo, Input input, Class<? extends List<?>> type) {
            Object[] elements = readElements(kryo, input);
            return Arrays.stream(elements).anyMatch(Objects::isNull)
                    ? Arrays.stream(elements).toList()
                    : List.of(elements);
        }
    }

    private static final class UnmodifiableListSerializer extends ReadOnly<List<?>> {
        @Override
        public void write(Kryo kryo, Output output, List<?> list) {
            writeElements(kryo, output, list);
        }

        @Override
        public List<?> read(Kryo kryo, Input input, Class<? extends List<?>> type) {
            return Collections.unmodifiableList(new ArrayList<>(Arrays.asList(readElements(kryo, input))));
        }
    }

    private static final class UnmodifiableCollectionSerializer extends ReadOnly<Collection<?>> {
        @Override
        public void write(Kryo kryo, Output output, Collection<?> collection) {
            writeElements(kryo, output, collection);
        }

        @Override
        public Collection<?> read(Kryo kryo, Input input, Class<? extends Collection<?>> type) {
            return Collections.unmodifiableCollection(new ArrayList<>(Arrays.asList(readElements(kryo, input))));
        }
    }

    private static final class UnmodifiableSetSerializer extends ReadOnly<Set<?>> {
        @Override
        public void write(Kryo kryo, Output output, Set<?> set) {
            writeElements(kryo, output, set);
        }

        @Override
        public Set<?> read(Kryo kryo, Input input, Class<? extends Set<?>> type) {
            return Collections.unmodifiableSet(new LinkedHashSet<>(Arrays.asList(readElements(kryo, input))));
        }
    }

    /** {@code Set.of}: Kryo's own reader would allocate the announced size unchecked. */
    private static final class ImmutableSetSerializer extends ReadOnly<Set<?>> {
        @Override
        public void write(Kryo kryo, Output output, Set<?> set) {
            writeElements(kryo, output, set);
        }

        @Override
        public Set<?> read(Kryo kryo, Input input, Class<? extends Set<?>> type) {
            return Set.of(readElements(kryo, input));
        }
    }

    /** {@code Map.of}, as keys and values alternating. */
    private static final class ImmutableMapSerializer extends ReadOnly<Map<?, ?>> {
        @Override
        public void write(Kryo kryo, Output output, Map<?, ?> map) {
            List<Object> flat = new ArrayList<>(2 * map.size());
            map.forEach((k, v) -> {
                flat.add(k);
                flat.add(v);
            });
            writeElements(kryo, output, flat);
        }

        @Override
        public Map<?, ?> read(Kryo kryo, Input input, Class<? extends Map<?, ?>> type) {
            Object[] flat = readElements(kryo, input);
            if (flat.length % 2 != 0) {
                throw new com.esotericsoftware.kryo.KryoException("a map needs keys and values in pairs");
            }
            Map<Object, Object> map = new LinkedHashMap<>();
            for (int i = 0; i < flat.length; i += 2) {
                map.put(flat[i], flat[i + 1]);
            }
            return Map.copyOf(map);
        }
    }

    private static final class UnmodifiableMapSerializer extends ReadOnly<Map<?, ?>> {
        @Override
        public void write(Kryo kryo, Output output, Map<?, ?> map) {
            output.writeVarInt(map.size(), true);
            for (Map.Entry<?, ?> e : map.entrySet()) {
                kryo.writeClassAndObject(output, e.getKey());
                kryo.writeClassAndObject(output, e.getValue());
            }
        }

        @Override
        public Map<?, ?> read(Kryo kryo, Input input, Class<? extends Map<?, ?>> type) {
            int size = input.readVarInt(true);
            BoundedInput.of(input).checkLength(size, "map");
            Map<Object, Object> map = new LinkedHashMap<>();
            for (int i = 0; i < size; i++) {
                Object key = kryo.readClassAndObject(input);
                map.put(key, kryo.readClassAndObject(input));
            }
            return Collections.unmodifiableMap(map);
        }
    }

    /** {@code Arrays.asList} is writable in place, so this one copies instead of sharing. */
    private static final class ArraysAsListSerializer extends Serializer<List<?>> {
        @Override
        public void write(Kryo kryo, Output output, List<?> list) {
            writeElements(kryo, output, list);
        }

        @Override
        public List<?> read(Kryo kryo, Input input, Class<? extends List<?>> type) {
            return Arrays.asList(readElements(kryo, input));
        }

        @Override
        public List<?> copy(Kryo kryo, List<?> original) {
            Object[] elements = original.toArray();
            for (int i = 0; i < elements.length; i++) {
                elements[i] = kryo.copy(elements[i]);
            }
            return Arrays.asList(elements);
        }
    }
}
