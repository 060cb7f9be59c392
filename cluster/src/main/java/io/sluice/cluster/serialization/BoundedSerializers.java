package io.sluice.cluster.serialization;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.CollectionSerializer;
import com.esotericsoftware.kryo.serializers.MapSerializer;
import java.lang.reflect.Array;
import java.util.Collection;
import java.util.Map;

/**
 * Kryo's collection, map and object-array serializers with one change: the element count read
 * from the wire is checked ({@link BoundedInput#checkLength}) before the container is created, so
 * a hostile count cannot make a node allocate a huge backing array.
 */
final class BoundedSerializers {
    private BoundedSerializers() {
    }

    static final class BoundedCollectionSerializer<T extends Collection<?>> extends CollectionSerializer<T> {
        @Override
        protected T create(Kryo kryo, Input input, Class<? extends T> type, int size) {
            BoundedInput.of(input).checkLength(size, "collection");
            return super.create(kryo, input, type, size);
        }
    }

    static final class BoundedMapSerializer<T extends Map<?, ?>> extends MapSerializer<T> {
        @Override
        protected T create(Kryo kryo, Input input, Class<? extends T> type, int size) {
            // a map entry takes at least two bytes (key and value), one is the safe bound
            BoundedInput.of(input).checkLength(size, "map");
            return super.create(kryo, input, type, size);
        }
    }

    /** Arrays of any reference type: a length, then each element with its class. */
    static final class BoundedObjectArraySerializer extends Serializer<Object[]> {
        BoundedObjectArraySerializer() {
            super(true);
        }

        @Override
        public void write(Kryo kryo, Output output, Object[] array) {
            output.writeVarInt(array.length + 1, true);
            for (Object element : array) {
                kryo.writeClassAndObject(output, element);
            }
        }

        @Override
        public Object[] read(Kryo kryo, Input input, Class<? extends Object[]> type) {
            int length = input.readVarInt(true);
            if (length == 0) {
                return null;
            }
            BoundedInput.of(input).checkLength(length - 1L, "array");
            Object[] array = (Object[]) Array.newInstance(type.getComponentType(), length - 1);
            kryo.reference(array);
            for (int i = 0; i < array.length; i++) {
                array[i] = kryo.readClassAndObject(input);
            }
            return array;
        }
    }
}
