package io.sluice.cluster.serialization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Output;
import io.sluice.cluster.SamplePlans;
import io.sluice.common.types.BinaryOp;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.operators.MapStatus;
import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Bytes an attacker could send: each is refused with a KryoException, quickly and without allocating. */
class HostileBytesTest {
    @Test
    void aClassNamedOnTheWireIsNeverLoaded() {
        Output out = new Output(256);
        out.writeVarInt(1, true); // Kryo: "class by name follows"
        out.writeVarInt(0, true); // its name id
        out.writeString("io.sluice.cluster.serialization.LoadTarget");
        assertThatThrownBy(() -> Kryos.deserialize(out.toBytes(), Object.class))
                .isInstanceOf(KryoException.class).hasMessageContaining("only Sluice's registered wire classes");
        assertThat(LoadFlag.loaded).isFalse();
    }

    @Test
    void anUnregisteredClassIdIsRefused() {
        Output out = new Output(16);
        out.writeVarInt(100_000, true);
        assertThatThrownBy(() -> Kryos.deserialize(out.toBytes(), Object.class))
                .isInstanceOf(KryoException.class).hasMessageContaining("unregistered class ID");
    }

    @Test
    void aHugeCollectionLengthIsRefusedAtOnceWithoutAllocating() {
        byte[] bytes = withLength(Kryos.serialize(new ArrayList<>(List.of(7L))), Kryos.serialize(new ArrayList<>(List.of(7L, 7L))),
                Integer.MAX_VALUE);
        assertRefusedCheaply(bytes, "collection length");
        assertRefusedCheaply(withLength(Kryos.serialize(List.of("a")), Kryos.serialize(List.of("a", "a")),
                Integer.MAX_VALUE), "collection length");
    }

    @Test
    void hugeArrayAndStringLengthsAreRefused() {
        MapStatus one = new MapStatus("w", "h", 1, new long[] {5});
        MapStatus two = new MapStatus("w", "h", 1, new long[] {5, 5});
        // long[] lengths are written plus one
        assertRefusedCheaply(withLength(Kryos.serialize(one), Kryos.serialize(two), Integer.MAX_VALUE),
                "long array length");
        byte[] s1 = Kryos.serialize(new Column("\u00e9"));
        byte[] s2 = Kryos.serialize(new Column("\u00e9\u00e9"));
        assertRefusedCheaply(withLength(s1, s2, Integer.MAX_VALUE - 1), "string length");
    }

    @Test
    void deepNestingIsRefused() throws Exception {
        Expr deep = new Column("x");
        for (int i = 0; i < 3000; i++) {
            deep = new Binary(BinaryOp.OR, deep, new Column("x"));
        }
        Expr built = deep;
        // written by a Kryo without the depth limit (on a big stack), as an attacker would
        AtomicReference<byte[]> bytes = new AtomicReference<>();
        Thread writer = new Thread(null, () -> {
            Kryo kryo = Kryos.newKryo(ActorRefSerializer.refusing());
            kryo.setMaxDepth(Integer.MAX_VALUE);
            Output out = new Output(1024, -1);
            kryo.writeClassAndObject(out, built);
            bytes.set(out.toBytes());
        }, "deep-writer", 256L << 20);
        writer.start();
        writer.join();
        assertThatThrownBy(() -> Kryos.deserialize(bytes.get(), Object.class))
                .isInstanceOf(KryoException.class).hasMessageContaining("depth");
    }

    @Test
    void oversizedMessagesAreRefused() {
        assertThatThrownBy(() -> Kryos.deserialize(new byte[Kryos.MAX_MESSAGE_BYTES + 1], Object.class))
                .isInstanceOf(KryoException.class).hasMessageContaining("exceeds the limit");
    }

    @Test
    void randomAndMutatedBytesOnlyEverFailWithKryoException() {
        byte[] valid = Kryos.serialize(SamplePlans.samplePlan());
        Random random = new Random(42);
        // bounded by count, and by time on a loaded machine (each try may build a large object graph)
        long deadline = System.nanoTime() + 30_000_000_000L;
        int tried = 0;
        while (tried < 500 && System.nanoTime() < deadline) {
            byte[] bytes = random.nextBoolean() ? randomBytes(random) : mutate(valid, random);
            try {
                Kryos.deserialize(bytes, LogicalPlan.class);
            } catch (KryoException expected) {
                // the only acceptable failure
            }
            tried++;
        }
        assertThat(tried).isGreaterThan(100);
        assertThat(Kryos.deserialize(valid, LogicalPlan.class)).isEqualTo(SamplePlans.samplePlan());
    }

    /** Every operator, logical node and expression of the plan-layer modules may travel: a new one must be listed. */
    @Test
    void everyPlanNodeIsOnTheWireList() throws Exception {
        List<String> missing = new ArrayList<>();
        for (Class<?> type : planClasses()) {
            boolean node = io.sluice.operators.ExecutionPlan.class.isAssignableFrom(type)
                    || LogicalPlan.class.isAssignableFrom(type) || Expr.class.isAssignableFrom(type);
            boolean concrete = !type.isInterface() && !Modifier.isAbstract(type.getModifiers());
            // MeasuredExec wraps a plan on the worker after it arrived, and the SQL front end plans
            // DistinctArgument away before it returns: neither ever travels
            if (node && concrete && !List.of("MeasuredExec", "DistinctArgument").contains(type.getSimpleName())
                    && !WireRegistry.moduleClasses().contains(type)) {
                missing.add(type.getName());
            }
        }
        assertThat(missing).isEmpty();
    }

    /**
     * The classes of the modules that hold expressions, logical nodes and operators (logical,
     * operators, datasource; the SQL front end's {@code DistinctArgument} never travels).
     */
    private static List<Class<?>> planClasses() throws IOException, URISyntaxException, ClassNotFoundException {
        List<Class<?>> classes = new ArrayList<>();
        for (Class<?> anchor : List.of(Expr.class, io.sluice.operators.ExecutionPlan.class,
                io.sluice.datasource.FileScanExec.class)) {
            classes.addAll(classesBeside(anchor));
        }
        return classes;
    }

    /** The classes loaded from where {@code anchor} was (its module's classes directory or jar). */
    private static List<Class<?>> classesBeside(Class<?> anchor)
            throws IOException, URISyntaxException, ClassNotFoundException {
        Path location = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> names = new ArrayList<>();
        if (Files.isDirectory(location)) {
            try (Stream<Path> files = Files.walk(location)) {
                files.filter(p -> p.toString().endsWith(".class"))
                        .forEach(p -> names.add(location.relativize(p).toString()));
            }
        } else {
            try (JarFile jar = new JarFile(location.toFile())) {
                jar.stream().filter(e -> e.getName().endsWith(".class")).forEach(e -> names.add(e.getName()));
            }
        }
        List<Class<?>> classes = new ArrayList<>();
        for (String name : names) {
            String className = name.replace('/', '.').replace(".class", "");
            if (!className.contains("$") || className.matches(".*\\$[A-Z]\\w*$")) {
                classes.add(Class.forName(className, false, Expr.class.getClassLoader()));
            }
        }
        return classes;
    }

    private static void assertRefusedCheaply(byte[] bytes, String message) {
        System.gc();
        Runtime rt = Runtime.getRuntime();
        long before = rt.totalMemory() - rt.freeMemory();
        long start = System.nanoTime();
        assertThatThrownBy(() -> Kryos.deserialize(bytes, Object.class))
                .isInstanceOf(KryoException.class).hasMessageContaining(message);
        long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
        long grown = rt.totalMemory() - rt.freeMemory() - before;
        assertThat(elapsedMillis).isLessThan(1000);
        assertThat(grown).isLessThan(50L << 20);
    }

    /**
     * {@code one} and {@code two} serialize a container of one and two elements: they differ first
     * at the length's varint. Returns {@code one} with that varint replaced by {@code length}.
     */
    private static byte[] withLength(byte[] one, byte[] two, int length) {
        int at = 0;
        while (one[at] == two[at]) {
            at++;
        }
        Output out = new Output(one.length + 8);
        out.writeBytes(one, 0, at);
        out.writeVarInt(length, true);
        out.writeBytes(one, at + 1, one.length - at - 1);
        return out.toBytes();
    }

    private static byte[] randomBytes(Random random) {
        byte[] bytes = new byte[random.nextInt(64)];
        random.nextBytes(bytes);
        return bytes;
    }

    private static byte[] mutate(byte[] valid, Random random) {
        byte[] bytes = valid.clone();
        int flips = 1 + random.nextInt(4);
        for (int i = 0; i < flips; i++) {
            int at = random.nextInt(bytes.length);
            bytes[at] = (byte) random.nextInt(256);
        }
        return random.nextInt(4) == 0 ? java.util.Arrays.copyOf(bytes, random.nextInt(bytes.length)) : bytes;
    }
}
