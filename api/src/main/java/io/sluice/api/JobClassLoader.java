package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.logical.expr.UserJar;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The class loader of a submitted job jar (parent: Sluice's own classes). It remembers the jar's
 * bytes, so that a user function class it defined ({@link Functions#udf}) sends its jar with the
 * tasks that call it, and workers load the class from that jar alone.
 */
public final class JobClassLoader extends URLClassLoader {
    private final byte[] bytes;
    private final Path copy;
    private UserJar jar;

    private JobClassLoader(Path file, byte[] bytes, Path copy) throws IOException {
        super("sluice-job", new URL[] {file.toUri().toURL()}, JobClassLoader.class.getClassLoader());
        this.bytes = bytes;
        this.copy = copy;
    }

    /** A loader over the jar file at {@code jar}. */
    public static JobClassLoader of(Path jar) {
        try {
            return new JobClassLoader(jar, Files.readAllBytes(jar), null);
        } catch (IOException e) {
            throw new SluiceException("cannot read job jar " + jar + ": " + e.getMessage());
        }
    }

    /** A loader over a jar's bytes (kept in a private temporary file, removed on close). */
    public static JobClassLoader of(byte[] bytes) {
        requireNonNull(bytes, "bytes is null");
        try {
            Path copy = Files.createTempFile("sluice-submitted-", ".jar");
            Files.write(copy, bytes);
            return new JobClassLoader(copy, bytes.clone(), copy);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the submitted jar: " + e.getMessage(), e);
        }
    }

    /** The jar as user function calls carry it (at most {@link UserJar#MAX_BYTES}). */
    public synchronized UserJar jar() {
        if (jar == null) {
            if (bytes.length > UserJar.MAX_BYTES) {
                throw new SluiceException("the job jar has " + bytes.length + " bytes; a jar whose classes are user "
                        + "functions may have at most " + UserJar.MAX_BYTES + " (move the rest to another jar)");
            }
            jar = UserJar.of(bytes);
        }
        return jar;
    }

    /** The static {@code main(String[])} of {@code className} in this jar; a missing one is the user's error. */
    public java.lang.reflect.Method mainMethod(String className) {
        try {
            java.lang.reflect.Method main = Class.forName(className, true, this).getMethod("main", String[].class);
            if (!java.lang.reflect.Modifier.isStatic(main.getModifiers())) {
                throw new SluiceException(className + ".main is not static");
            }
            return main;
        } catch (ClassNotFoundException e) {
            throw new SluiceException("class " + className + " not found in the job jar");
        } catch (NoSuchMethodException e) {
            throw new SluiceException("class " + className + " has no main(String[]) method");
        }
    }

    /** The Main-Class its manifest names, or null. */
    public String manifestMainClass() {
        try (java.util.jar.JarInputStream in = new java.util.jar.JarInputStream(new java.io.ByteArrayInputStream(bytes))) {
            return in.getManifest() == null ? null : in.getManifest().getMainAttributes().getValue("Main-Class");
        } catch (IOException e) {
            throw new SluiceException("the job jar cannot be read: " + e.getMessage());
        }
    }

    @Override
    public void close() throws IOException {
        try {
            super.close();
        } finally {
            if (copy != null) {
                Files.deleteIfExists(copy);
            }
        }
    }
}
