package io.sluice.api;

import io.sluice.common.SluiceException;
import io.sluice.logical.expr.UserJar;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * The jar a user function class travels in when a remote session calls it: the jar file the class
 * was loaded from, or, for a class loaded from a directory (an IDE's or a build's output), a jar made
 * here of the class and its nested classes. Workers load the class from those bytes alone.
 */
final class UserJars {
    private UserJars() {
    }

    static UserJar of(Class<?> function) {
        if (function.getClassLoader() instanceof JobClassLoader job) {
            return job.jar();
        }
        CodeSource source = function.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            throw new SluiceException("user function " + function.getName() + " has no class file or jar to send"
                    + " to the cluster (a JDK or generated class)");
        }
        Path location;
        try {
            location = Path.of(source.getLocation().toURI());
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new SluiceException("user function " + function.getName() + " comes from " + source.getLocation()
                    + ", which is not a local file");
        }
        try {
            byte[] bytes = Files.isDirectory(location) ? jarOfClass(location, function) : Files.readAllBytes(location);
            if (bytes.length > UserJar.MAX_BYTES) {
                throw new SluiceException("the jar of user function " + function.getName() + " (" + location + ") has "
                        + bytes.length + " bytes; at most " + UserJar.MAX_BYTES + " travel with a query");
            }
            return UserJar.of(bytes);
        } catch (IOException e) {
            throw new SluiceException("cannot read the class of user function " + function.getName() + " from "
                    + location + ": " + e.getMessage());
        }
    }

    /** A jar of {@code function}'s class file and its nested classes' ({@code Name$*.class}), under {@code root}. */
    private static byte[] jarOfClass(Path root, Class<?> function) throws IOException {
        String path = function.getName().replace('.', '/');
        Path directory = root.resolve(path).getParent();
        String simple = path.substring(path.lastIndexOf('/') + 1);
        List<Path> files = new ArrayList<>();
        try (Stream<Path> listed = Files.list(directory)) {
            listed.filter(p -> {
                String n = p.getFileName().toString();
                return n.equals(simple + ".class") || n.startsWith(simple + "$") && n.endsWith(".class");
            }).sorted().forEach(files::add);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JarOutputStream jar = new JarOutputStream(out)) {
            for (Path file : files) {
                JarEntry entry = new JarEntry(root.relativize(file).toString().replace('\\', '/'));
                entry.setTime(0);
                jar.putNextEntry(entry);
                jar.write(Files.readAllBytes(file));
                jar.closeEntry();
            }
        }
        return out.toByteArray();
    }
}
