package io.sluice.logical.expr;

import io.sluice.common.SluiceException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where user function classes come from. A class named with a {@link UserJar} is loaded, without
 * running its initializer first, by that jar's own class loader (one per jar, over a private copy
 * of it, parent Sluice's loader) and must be <em>defined by the jar</em>: a name that resolves to a
 * class of the node's class path through the parent is refused, so a job can only instantiate its
 * own classes. It must implement {@link UserFunction} and have a public no-argument constructor.
 * A class named without a jar (an embedded cluster, whose user code shares the JVM) is looked up on
 * the node's class path with the same checks. The last {@link #MAX_LOADERS} jars' loaders are kept.
 */
public final class UserClasses {
    private static final Logger LOG = LoggerFactory.getLogger(UserClasses.class);

    static final int MAX_LOADERS = 16;

    private static final Map<String, URLClassLoader> LOADERS = new LinkedHashMap<>(16, 0.75f, true);

    private UserClasses() {
    }

    /** A new instance of a user function class. */
    public static UserFunction newFunction(String className, UserJar jar) {
        Class<?> type;
        try {
            if (jar == null) {
                type = Class.forName(className, false, UserFunction.class.getClassLoader());
            } else {
                ClassLoader loader = loader(jar);
                type = Class.forName(className, false, loader);
                if (type.getClassLoader() != loader) {
                    throw new SluiceException("user function class " + className + " is not defined by the job's jar");
                }
            }
        } catch (ClassNotFoundException e) {
            throw new SluiceException("user function class " + className + " not found"
                    + (jar == null ? "" : " in the job's jar"));
        }
        if (!UserFunction.class.isAssignableFrom(type)) {
            throw new SluiceException("class " + className + " does not implement " + UserFunction.class.getName());
        }
        try {
            return (UserFunction) type.getConstructor().newInstance();
        } catch (NoSuchMethodException | IllegalAccessException | InstantiationException e) {
            throw new SluiceException("user function class " + className + " needs a public no-argument constructor");
        } catch (InvocationTargetException e) {
            throw new SluiceException("user function class " + className + " failed to construct: " + e.getCause(), e);
        }
    }

    /** The class loader of a job's jar, made once per jar (by id) over a private copy of its bytes. */
    public static synchronized URLClassLoader loader(UserJar jar) {
        URLClassLoader loader = LOADERS.get(jar.id());
        if (loader != null) {
            return loader;
        }
        try {
            Path file = Files.createTempFile("sluice-job-" + jar.id().substring(0, 12) + "-", ".jar");
            file.toFile().deleteOnExit();
            Files.write(file, jar.bytes());
            loader = new URLClassLoader("sluice-job-" + jar.id().substring(0, 12), new URL[] {file.toUri().toURL()},
                    UserFunction.class.getClassLoader());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the job's jar: " + e.getMessage(), e);
        }
        LOADERS.put(jar.id(), loader);
        if (LOADERS.size() > MAX_LOADERS) {
            var eldest = LOADERS.entrySet().iterator();
            URLClassLoader old = eldest.next().getValue();
            eldest.remove();
            try {
                old.close();
            } catch (IOException e) {
                // its classes stay usable by whoever holds them; its copy of the jar may stay behind
                LOG.warn("closing the class loader of an evicted job jar failed", e);
            }
        }
        return loader;
    }
}
