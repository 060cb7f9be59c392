package io.sluice.cluster;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.lang.ref.WeakReference;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/**
 * The class loader a node's actor system is given: the application's own (it defines no class and
 * finds every class and resource through its parent) except for jar manifests, of which it shows
 * only Pekko's. Every actor system, as it starts, reads every {@code META-INF/MANIFEST.MF} its class
 * loader finds, to check that Pekko's modules are of one version ({@code pekko.fail-mixed-versions});
 * on Sluice's class path that is some 190 jars, signed ones verified, three times in an embedded
 * cluster, though only the {@code pekko-*} jars' manifests take part in the check, which still sees
 * all of those.
 *
 * <p>One instance per parent ({@link #of}): Typesafe Config caches {@code reference.conf} and
 * {@code ConfigFactory.load} for the last class loader asked, so the nodes of a JVM and their
 * configuration share one.
 */
final class PekkoClassLoader extends ClassLoader {
    static final String MANIFEST = "META-INF/MANIFEST.MF";

    static {
        registerAsParallelCapable();
    }

    /** The loader made last, weakly: it must not keep a closed job's class loader (its parent) alive. */
    private static volatile WeakReference<PekkoClassLoader> last = new WeakReference<>(null);

    private PekkoClassLoader(ClassLoader parent) {
        super("sluice-pekko", requireNonNull(parent, "parent is null"));
    }

    /** The loader over this thread's context class loader (else this class's), as Pekko would choose it. */
    static ClassLoader forThisThread() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return of(context != null ? context : PekkoClassLoader.class.getClassLoader());
    }

    /** The loader over {@code parent}: the one made last if it has that parent, else a new one. */
    static ClassLoader of(ClassLoader parent) {
        if (parent instanceof PekkoClassLoader) {
            return parent;
        }
        PekkoClassLoader current = last.get();
        if (current == null || current.getParent() != parent) {
            current = new PekkoClassLoader(parent);
            last = new WeakReference<>(current);
        }
        return current;
    }

    /** Straight to the parent: this loader defines nothing, so it needs no lock and no lookup of its own. */
    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        return getParent().loadClass(name);
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
        Enumeration<URL> found = getParent().getResources(name);
        if (!MANIFEST.equals(name)) {
            return found;
        }
        List<URL> pekko = new ArrayList<>();
        while (found.hasMoreElements()) {
            URL manifest = found.nextElement();
            if (inPekkoJar(manifest)) {
                pekko.add(manifest);
            }
        }
        return Collections.enumeration(pekko);
    }

    /** Whether a resource's URL ({@code jar:file:/lib/pekko-actor_2.13-1.7.0.jar!/...}) is in a jar named {@code pekko-*}. */
    static boolean inPekkoJar(URL resource) {
        String path = resource.getPath();
        int entry = path.lastIndexOf("!/");
        if (!"jar".equals(resource.getProtocol()) || entry < 0) {
            return false;
        }
        String jar = path.substring(0, entry);
        return jar.substring(jar.lastIndexOf('/') + 1).startsWith("pekko-");
    }
}
