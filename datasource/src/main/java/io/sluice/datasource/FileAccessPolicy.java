package io.sluice.datasource;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.settings.Settings;
import io.sluice.datasource.file.CheckedLocation;
import io.sluice.datasource.file.FileGuard;
import io.sluice.datasource.file.SourceFile;
import io.sluice.datasource.file.SourceFiles;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.SubqueryExpr;
import io.sluice.logical.plan.TableScan;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which table locations the coordinator may open for a client: a location's scheme must be allowed
 * ({@code file}, {@code hdfs}, {@code s3a} by default; never {@code http(s)}, which would make the
 * coordinator fetch URLs for a client) and it must lie under one of the allowed roots. A local path
 * is normalized and, if it exists, resolved through symbolic links before the comparison, so
 * {@code ..} or a link cannot leave a root. Refusals name the location and the rule, never anything
 * read from it (nothing is read).
 *
 * <p>It is checked three times: {@link #check} when a table is created and again when each query
 * or write starts (the location as Hadoop's {@code Path} opens it, returned as the {@link
 * CheckedLocation} the catalog and the write carry), and {@link #checkFiles} on every listing made
 * while a query is planned ({@link SourceFiles#guarded}), so a link met inside a table directory,
 * or a directory swapped for a link after {@code CREATE}, is refused before any file is opened.
 *
 * <p>An operator can allow one bucket prefix and nothing else: roots {@code s3a://bucket/prefix}
 * refuse every local path and every other bucket. The root {@value #EVERYWHERE} allows every
 * location of every scheme: an embedded cluster runs on the user's own machine with the user's own
 * credentials, so it opens what the user could open anyway.
 *
 * @param schemes lower-case schemes allowed
 * @param roots   locations under which tables may live: local directories as absolute paths or
 *                {@code file:} URIs, others as URIs ({@code hdfs://nn/warehouse}); empty allows none
 */
public record FileAccessPolicy(Set<String> schemes, List<String> roots) implements FileGuard {
    /** The root that allows every location, of every scheme. */
    public static final String EVERYWHERE = "*";
    public static final Set<String> DEFAULT_SCHEMES = Set.of("file", "hdfs", "s3a");
    /** The system property naming further allowed schemes, comma-separated (a Hadoop file system such as {@code gs}). */
    public static final String SCHEMES_PROPERTY = DatasourceSettingsDeclaration.ALLOWED_SCHEMES.name();
    /** The system property naming the roots, comma-separated. */
    public static final String ROOTS_PROPERTY = DatasourceSettingsDeclaration.ALLOWED_ROOTS.name();

    public FileAccessPolicy {
        schemes = Set.copyOf(requireNonNull(schemes, "schemes is null"));
        roots = List.copyOf(requireNonNull(roots, "roots is null"));
        for (String root : roots) {
            if (!root.equals(EVERYWHERE)) {
                location(root); // fails on a malformed root now, not on the first table
            }
        }
    }

    /** Every location of every scheme ({@link #EVERYWHERE}): for an embedded cluster. */
    public static FileAccessPolicy everywhere() {
        return new FileAccessPolicy(DEFAULT_SCHEMES, List.of(EVERYWHERE));
    }

    /** The default schemes, plus those of {@value #SCHEMES_PROPERTY}, under {@code roots}. */
    public static FileAccessPolicy under(List<String> roots) {
        Set<String> schemes = new java.util.TreeSet<>(DEFAULT_SCHEMES);
        String more = Settings.systemProperty(DatasourceSettingsDeclaration.ALLOWED_SCHEMES);
        if (more != null && !more.isBlank()) {
            for (String scheme : more.trim().split("\\s*,\\s*")) {
                if (scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https")) {
                    throw new IllegalArgumentException(SCHEMES_PROPERTY + " cannot allow " + scheme
                            + ": the coordinator would fetch URLs for its clients");
                }
                schemes.add(scheme.toLowerCase(java.util.Locale.ROOT));
            }
        }
        return new FileAccessPolicy(schemes, roots);
    }

    /** Roots from {@value #ROOTS_PROPERTY} when set, else {@code defaultRoot}. */
    public static FileAccessPolicy fromSystemProperty(String defaultRoot) {
        String property = Settings.systemProperty(DatasourceSettingsDeclaration.ALLOWED_ROOTS);
        if (property == null || property.isBlank()) {
            return under(List.of(defaultRoot));
        }
        return under(List.of(property.trim().split("\\s*,\\s*")));
    }

    /**
     * The location parsed and normalized as readers and writers open it, refused with a {@link
     * SluiceException} naming it when outside the policy: each of its comma-separated paths must
     * pass, and a glob may not climb with {@code ..} (an alternation such as {@code {a,..}} would
     * hide it from the comparison). A local path is compared through its symbolic links.
     */
    public CheckedLocation check(String location) {
        List<org.apache.hadoop.fs.Path> paths = new ArrayList<>();
        for (String path : SourceFiles.paths(location)) {
            if (SourceFiles.isGlob(path) && path.contains("..")) {
                throw new SluiceException("table location " + path + " is a glob with '..'; name the directory without it");
            }
            paths.add(checkPath(path));
        }
        return new CheckedLocation(location, paths);
    }

    private org.apache.hadoop.fs.Path checkPath(String location) {
        URI uri = location(location);
        org.apache.hadoop.fs.Path normal = uri.getScheme().equals("file") && !location.regionMatches(true, 0, "file:", 0, 5)
                ? new org.apache.hadoop.fs.Path(uri.getPath())
                : new org.apache.hadoop.fs.Path(uri.getScheme(), uri.getAuthority(), uri.getPath());
        if (roots.contains(EVERYWHERE)) {
            return normal;
        }
        String scheme = uri.getScheme();
        if (!schemes.contains(scheme)) {
            throw new SluiceException("table location " + location + " uses scheme '" + scheme
                    + "', which this coordinator does not open (allowed: " + String.join(", ", schemes.stream().sorted().toList())
                    + ")");
        }
        URI inside = uri.getScheme().equals("file") ? realPath(Path.of(uri.getPath())).toUri() : uri;
        if (rootUris().stream().noneMatch(root -> under(inside, root))) {
            throw new SluiceException("table location " + location + (inside.equals(uri) ? "" : " (which resolves to "
                    + inside.getPath() + ")") + " is outside the allowed roots " + roots + " (" + ROOTS_PROPERTY + ")");
        }
        return normal;
    }

    /**
     * Refuses a listed file that lies outside the roots once its symbolic links are resolved: a link
     * inside a table directory, or a directory swapped for a link since the table was created. The
     * message names the location, the file, where it leads and the roots.
     */
    @Override
    public void checkFiles(String location, List<SourceFile> files) {
        if (roots.contains(EVERYWHERE) || files.isEmpty()) {
            return;
        }
        List<URI> rootUris = rootUris();
        for (SourceFile file : files) {
            URI uri = new org.apache.hadoop.fs.Path(file.path()).toUri();
            URI opened = uri.getScheme() == null || uri.getScheme().equalsIgnoreCase("file")
                    ? realPath(Path.of(uri.getPath())).toUri() : uri;
            if (rootUris.stream().noneMatch(root -> under(opened, root))) {
                throw new SluiceException("table location " + location + ": file " + file.path() + " resolves to "
                        + opened.getPath() + ", outside the allowed roots " + roots + " (" + ROOTS_PROPERTY + ")");
            }
        }
    }

    /** The roots as URIs, local ones through their symbolic links. */
    private List<URI> rootUris() {
        List<URI> out = new ArrayList<>();
        for (String root : roots) {
            if (!root.equals(EVERYWHERE)) {
                URI uri = location(root);
                out.add(uri.getScheme().equals("file") ? realPath(Path.of(uri.getPath())).toUri() : uri);
            }
        }
        return out;
    }

    /** Checks every table a plan reads, subqueries included. */
    public void checkTables(LogicalPlan plan) {
        Deque<Object> pending = new ArrayDeque<>();
        Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>()); // a shared node (a WITH query read twice) once
        pending.push(plan);
        while (!pending.isEmpty()) {
            Object item = pending.pop();
            if (!seen.add(item)) {
                continue;
            }
            if (item instanceof TableScan scan) {
                check(scan.source().location());
            }
            if (item instanceof LogicalPlan p) {
                p.children().forEach(pending::push);
                p.expressions().forEach(pending::push);
            } else if (item instanceof Expr e) {
                e.children().forEach(pending::push);
                if (e instanceof SubqueryExpr s) {
                    pending.push(s.subquery());
                }
            }
        }
    }

    /** Whether {@code location} lies under {@code root}, both normalized (local ones also through their links). */
    private static boolean under(URI location, URI root) {
        if (!location.getScheme().equalsIgnoreCase(root.getScheme())
                || !java.util.Objects.equals(location.getAuthority(), root.getAuthority())) {
            return false;
        }
        return Path.of(location.getPath()).normalize().startsWith(Path.of(root.getPath()).normalize());
    }

    private static Path realPath(Path path) {
        Path normal = path.toAbsolutePath().normalize();
        // resolve links through the deepest existing ancestor, so a link inside a root cannot point out
        Path existing = normal;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return normal;
        }
        try {
            return existing.toRealPath().resolve(existing.relativize(normal)).normalize();
        } catch (IOException e) {
            return normal;
        }
    }

    /**
     * A location as a URI with a lower-case scheme (a plain path is a {@code file:} URI), parsed as
     * Hadoop's {@code Path} parses it, since that is what readers and writers open: {@code ?} and
     * {@code #} stay part of the path (where {@code java.net.URI} would split them off) and {@code ..}
     * is resolved before the check.
     */
    private static URI location(String location) {
        requireNonNull(location, "location is null");
        URI uri;
        try {
            uri = new org.apache.hadoop.fs.Path(location).toUri();
        } catch (IllegalArgumentException e) {
            throw new SluiceException("table location " + location + " is not a valid path: " + e.getMessage(), e);
        }
        if (uri.getScheme() == null || (uri.getScheme().length() == 1 && location.matches("^[A-Za-z]:[\\\\/].*"))) {
            return Path.of(uri.getPath()).toAbsolutePath().normalize().toUri();
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        if (uri.getPath() == null || uri.getPath().isEmpty()) {
            throw new SluiceException("table location " + location + " has no path");
        }
        try {
            return new URI(scheme, uri.getAuthority(), uri.getPath(), null, null).normalize();
        } catch (URISyntaxException e) {
            throw new SluiceException("table location " + location + " is not a valid URI: " + e.getReason(), e);
        }
    }
}
