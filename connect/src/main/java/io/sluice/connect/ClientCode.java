package io.sluice.connect;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.connect.proto.CommonInlineUserDefinedFunction;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.UserFunctionCall;
import io.sluice.logical.expr.UserJar;
import io.sluice.sql.SessionFunctions;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;

/**
 * A Spark Connect session's user code: the jars its client added ({@code spark.addArtifact("udf.jar")})
 * and the Java functions it registered from them ({@code spark.udf().registerJava(name, class, type)}),
 * each a Sluice {@code UserFunction} whose class travels in its jar to the workers, as with a remote
 * {@code Session.connect}. Both are refused unless the coordinator runs client code
 * ({@code --allow-job-jars}): the class runs on the workers. Bounded: jars of at most
 * {@link UserJar#MAX_BYTES} each and {@link #MAX_TOTAL_BYTES} in all per session; a function's class
 * must be defined by one of the session's jars (never the nodes' class path).
 */
final class ClientCode implements SessionFunctions {
    static final long MAX_TOTAL_BYTES = 16L << 20;

    private final BooleanSupplier allowed;
    private final Map<String, UserJar> jars = new ConcurrentHashMap<>();
    private final Map<String, UserFunctionCall> functions = new ConcurrentHashMap<>();

    ClientCode(BooleanSupplier allowed) {
        this.allowed = requireNonNull(allowed, "allowed is null");
    }

    /** Refuses client code unless the coordinator runs it; {@code what} names the attempt. */
    void checkAllowed(String what) {
        if (!allowed.getAsBoolean()) {
            throw new SluiceException(what + " is refused: this coordinator does not run client code; start it with"
                    + " --allow-job-jars (-Dsluice.coordinator.allow-job-jars=true)");
        }
    }

    /** Adds an artifact of the client; only jars ({@code jars/NAME.jar}) are taken. */
    synchronized void add(String name, byte[] bytes) {
        checkAllowed("artifact " + name);
        if (!name.startsWith("jars/") || !name.toLowerCase(Locale.ROOT).endsWith(".jar")) {
            throw new SluiceException("artifact " + name + " is not supported by Sluice: only jars (spark.addArtifact(\"x.jar\"))"
                    + " holding UserFunction classes");
        }
        if (bytes.length > UserJar.MAX_BYTES) {
            throw new SluiceException("artifact " + name + " has " + bytes.length + " bytes; a jar of user functions may have "
                    + "at most " + UserJar.MAX_BYTES);
        }
        long total = bytes.length + jars.entrySet().stream().filter(e -> !e.getKey().equals(name))
                .mapToLong(e -> e.getValue().bytes().length).sum();
        if (total > MAX_TOTAL_BYTES) {
            throw new SluiceException("artifact " + name + " would make this session's jars " + total + " bytes; at most "
                    + MAX_TOTAL_BYTES);
        }
        jars.put(name, UserJar.of(bytes));
    }

    boolean has(String name) {
        return jars.containsKey(name);
    }

    /** {@code spark.udf().registerJava(name, className, returnType)}: the class from one of the session's jars. */
    void register(CommonInlineUserDefinedFunction function) {
        String name = function.getFunctionName();
        if (!function.hasJavaUdf()) {
            throw new SluiceException("function " + name + " is a " + function.getFunctionCase().name().toLowerCase(Locale.ROOT)
                    + ", which Sluice cannot run; register a Java UserFunction class with spark.udf().registerJava");
        }
        checkAllowed("user function " + name);
        String className = function.getJavaUdf().getClassName();
        if (function.getJavaUdf().getAggregate()) {
            throw new SluiceException("user function " + name + " (" + className + ") is an aggregate; Sluice runs scalar"
                    + " UserFunction classes only");
        }
        if (!function.getJavaUdf().hasOutputType()) {
            throw new SluiceException("user function " + name + " (" + className + ") needs its return type");
        }
        DataType type = SparkTypes.fromProto(function.getJavaUdf().getOutputType());
        functions.put(name.toLowerCase(Locale.ROOT), new UserFunctionCall(name, className, jarOf(className), List.of(), type));
    }

    /** A call of the registered function {@code name}, or null when none is registered by that name. */
    @Override
    public Expr call(String name, List<Expr> args) {
        UserFunctionCall registered = functions.get(name.toLowerCase(Locale.ROOT));
        if (registered == null) {
            return null;
        }
        checkAllowed("user function " + name);
        return registered.withChildren(args);
    }

    private UserJar jarOf(String className) {
        String entry = className.replace('.', '/') + ".class";
        for (UserJar jar : jars.values()) {
            if (holds(jar, entry)) {
                return jar;
            }
        }
        throw new SluiceException("user function class " + className + " is in none of the jars added to this session "
                + jars.keySet() + "; add its jar with spark.addArtifact first");
    }

    private static boolean holds(UserJar jar, String entry) {
        try (JarInputStream in = new JarInputStream(new ByteArrayInputStream(jar.bytes()))) {
            for (JarEntry e = in.getNextJarEntry(); e != null; e = in.getNextJarEntry()) {
                if (e.getName().equals(entry)) {
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            throw new SluiceException("a jar added to this session cannot be read: " + e.getMessage(), e);
        }
    }
}
