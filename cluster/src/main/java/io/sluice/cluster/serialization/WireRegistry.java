package io.sluice.cluster.serialization;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import io.sluice.cluster.protocol.CancelTask;
import io.sluice.cluster.protocol.GetMapOutputs;
import io.sluice.cluster.protocol.MapOutputColumn;
import io.sluice.cluster.protocol.MapOutputs;
import io.sluice.cluster.protocol.MessagePart;
import io.sluice.cluster.protocol.RegisterWorker;
import io.sluice.cluster.protocol.RemoveShuffles;
import io.sluice.cluster.protocol.RunTask;
import io.sluice.cluster.protocol.ShuffleServerJoined;
import io.sluice.cluster.protocol.ShuffleServerLost;
import io.sluice.cluster.protocol.TaskDescription;
import io.sluice.cluster.protocol.TaskFinished;
import io.sluice.cluster.protocol.TaskMetrics;
import io.sluice.cluster.protocol.WorkerMemory;
import io.sluice.cluster.protocol.WorkerRegistered;
import io.sluice.common.WireClasses;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.TreeMap;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * The explicit list of classes Sluice's Kryo reads and writes, registered in a fixed order: the
 * JDK values and containers plans use, the cluster protocol, then every module's {@link
 * WireClasses} (providers sorted by class name). Kryo's own defaults (primitives, their boxes and
 * {@code String}) come first. Nothing else can be read: bytes naming an unregistered class id fail.
 */
final class WireRegistry {
    /** The JDK's private collection classes, found through instances since they cannot be named. */
    private static final List<Class<?>> JDK_IMMUTABLES = List.of(
            List.of().getClass(), List.of(1).getClass(), List.of(1, 2, 3).getClass(),
            List.of(1, 2, 3).subList(0, 2).getClass(), java.util.stream.Stream.of(1, null).toList().getClass(),
            java.util.Set.of().getClass(), java.util.Set.of(1).getClass(), java.util.Set.of(1, 2, 3).getClass(),
            java.util.Map.of().getClass(), java.util.Map.of(1, 1).getClass(), java.util.Map.of(1, 1, 2, 2).getClass(),
            java.util.Collections.emptyList().getClass(), java.util.Collections.emptySet().getClass(),
            java.util.Collections.emptyMap().getClass(), java.util.Collections.singletonList(1).getClass(),
            java.util.Collections.singleton(1).getClass(), java.util.Collections.singletonMap(1, 1).getClass(),
            java.util.Collections.unmodifiableList(new ArrayList<>()).getClass(),
            java.util.Collections.unmodifiableList(new LinkedList<>()).getClass(),
            java.util.Collections.unmodifiableSet(new LinkedHashSet<>()).getClass(),
            java.util.Collections.unmodifiableMap(new LinkedHashMap<>()).getClass(),
            java.util.Collections.unmodifiableCollection(new ArrayList<>()).getClass(),
            java.util.Arrays.asList().getClass());

    private static final List<Class<?>> PROTOCOL = List.of(RegisterWorker.class, WorkerRegistered.class,
            RunTask.class, TaskDescription.class, CancelTask.class, RemoveShuffles.class, TaskFinished.class,
            TaskMetrics.class, WorkerMemory.class, GetMapOutputs.class, MapOutputs.class, ShuffleServerLost.class,
            ShuffleServerJoined.class, MapOutputColumn.class, MessagePart.class);

    /** Loaded once: the providers on this node's class path. */
    private static final List<Class<?>> MODULE_CLASSES = loadModuleClasses();

    private WireRegistry() {
    }

    /**
     * Registers every wire class on {@code kryo}, {@code actorRefs} for typed actor references.
     * Call after the default serializers are set up ({@link JdkCollectionSerializers}).
     */
    static void registerAll(Kryo kryo, Serializer<?> actorRefs) {
        kryo.register(byte[].class);
        kryo.register(int[].class);
        kryo.register(long[].class);
        kryo.register(double[].class);
        kryo.register(boolean[].class);
        kryo.register(Object[].class, new BoundedSerializers.BoundedObjectArraySerializer());
        kryo.register(String[].class, new BoundedSerializers.BoundedObjectArraySerializer());
        kryo.register(BigDecimal.class);
        kryo.register(BigInteger.class);
        kryo.register(LocalDate.class);
        for (Class<?> type : List.of(ArrayList.class, LinkedList.class, HashSet.class, LinkedHashSet.class)) {
            kryo.register(type, new BoundedSerializers.BoundedCollectionSerializer<>());
        }
        for (Class<?> type : List.of(HashMap.class, LinkedHashMap.class)) {
            kryo.register(type, new BoundedSerializers.BoundedMapSerializer<>());
        }
        kryo.register(TreeMap.class); // Kryo's own: it allocates nothing by the announced size
        for (Class<?> type : JDK_IMMUTABLES) {
            kryo.register(type);
        }
        kryo.register(actorRefClass(), actorRefs);
        for (Class<?> type : PROTOCOL) {
            kryo.register(type);
        }
        for (Class<?> type : MODULE_CLASSES) {
            kryo.register(type);
        }
    }

    /** Every class registered beyond Kryo's defaults, for tests. */
    static List<Class<?>> moduleClasses() {
        return MODULE_CLASSES;
    }

    private static List<Class<?>> loadModuleClasses() {
        List<WireClasses> providers = new ArrayList<>();
        ServiceLoader.load(WireClasses.class, WireRegistry.class.getClassLoader()).forEach(providers::add);
        providers.sort(Comparator.comparing(p -> p.getClass().getName()));
        List<Class<?>> classes = new ArrayList<>();
        for (WireClasses provider : providers) {
            classes.addAll(provider.classes());
        }
        return List.copyOf(classes);
    }

    /**
     * The class of typed actor references crossing nodes (Pekko's adapter over a classic ref),
     * named, not loaded by a wire name.
     */
    private static Class<?> actorRefClass() {
        try {
            Class<?> type = Class.forName("org.apache.pekko.actor.typed.internal.adapter.ActorRefAdapter");
            if (!ActorRef.class.isAssignableFrom(type)) {
                throw new IllegalStateException(type + " is no typed ActorRef");
            }
            return type;
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("Pekko's typed ActorRefAdapter is missing from the class path", e);
        }
    }
}
