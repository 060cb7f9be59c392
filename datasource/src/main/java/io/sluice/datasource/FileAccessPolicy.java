package io.sluice.datasource;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.settings.Settings;
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
import java.util.Deque;
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
 * @param schemes lower-case schemes allowed
 * <p>An operator can allow one bucket prefix and nothing else: roots {@code s3a://bucket/prefix}
 * refuse every local path and every other bucket. The root {@value #EVERYWHERE} allows every
 * location of every scheme: an embedded cluster runs on the user's own machine with the user's own
 * credentials, so it opens what the user could open anyway.
 *
 * @param schemes lower-case schemes allowed
 * @param roots   locations under which tables may live: local directories as absolute paths or
 *                {@code file:} URIs, others as URIs ({@code hdfs://nn/warehouse}); empty allows none
 */
public record FileAccessPolicy(Set<String> schemes, List<String> roots) {
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
     * Refuses a location outside the policy with a {@link SluiceException} naming it: each of its
     * comma-separated paths must pass, and a glob may not climb with {@code ..} (an alternation such
     * as {@code {a,..}} would hide it from the comparison).
     */
    public void check(String location) {
        for (String path : SourceFiles.paths(location)) {
            if (SourceFiles.isGlob(path) && path.contains("..")) {
                throw new SluiceException("table location " + path + " is a glob with '..'; name the directory without it");
            }
            checkPath(path);
        }
    }

    private void checkPath(String location) {
        URI uri = location(location);
        if (roots.contains(EVERYWHERE)) {
            return;
        }
        String scheme = uri.getScheme();
        if (!schemes.contains(scheme)) {
            throw new SluiceException("table location " + location + " uses scheme '" + scheme
                    + "', which this coordinator does not open (allowed: " + String.join(", ", schemes.stream().sorted().toList())
                    + ")");
        }
        for (String root : roots) {
            if (!root.equals(EVERYWHERE) && under(uri, location(root))) {
                return;
            }
        }
        throw new SluiceException("table location " + location + " is outside the allowed roots "
                + roots + " (" + ROOTS_PROPERTY + ")");
    }

    /** Checks every table a plan reads, subqueries included. */
    public void checkTables(LogicalPlan plan) {
        Deque<Object> pending = new ArrayDeque<>();
        pending.push(plan);
        while (!pending.isEmpty()) {
            Object item = pending.pop();
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

    private static boolean under(URI location, URI root) {
        if (!location.getScheme().equals(root.getScheme())) {
            return false;
        }
        if (location.getScheme().equals("file")) {
            return realPath(Path.of(location.getPath())).startsWith(realPath(Path.of(root.getPath())));
        }
        if (!java.util.Objects.equals(location.getAuthority(), root.getAuthority())) {
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
