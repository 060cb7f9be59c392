package io.sluice.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.util.Collections;
import java.util.List;
import java.util.jar.Manifest;
import org.apache.pekko.actor.ActorSystem;
import org.junit.jupiter.api.Test;

/** The actor systems' class loader: Pekko's manifests only, everything else as the application's. */
class PekkoClassLoaderTest {
    private final ClassLoader app = PekkoClassLoaderTest.class.getClassLoader();

    @Test
    void showsOnlyPekkoJarsManifestsAndAllOfThem() throws Exception {
        ClassLoader loader = PekkoClassLoader.of(app);
        List<URL> all = Collections.list(app.getResources(PekkoClassLoader.MANIFEST));
        List<URL> shown = Collections.list(loader.getResources(PekkoClassLoader.MANIFEST));
        // the check Pekko runs reads Apache Pekko's modules by their manifests' titles: all of them are shown
        List<URL> pekkoModules = all.stream().filter(PekkoClassLoaderTest::isPekkoModule).toList();
        assertThat(pekkoModules).hasSizeGreaterThan(3);
        assertThat(shown).containsExactlyInAnyOrderElementsOf(pekkoModules);
        assertThat(all.size()).isGreaterThan(shown.size());
    }

    @Test
    void findsClassesAndOtherResourcesAsItsParent() throws Exception {
        ClassLoader loader = PekkoClassLoader.of(app);
        assertThat(Class.forName("org.apache.pekko.actor.ActorSystem", false, loader)).isSameAs(ActorSystem.class);
        assertThat(Collections.list(loader.getResources("reference.conf")))
                .containsExactlyElementsOf(Collections.list(app.getResources("reference.conf")));
        assertThat(loader.getResource("reference.conf")).isEqualTo(app.getResource("reference.conf"));
    }

    @Test
    void oneLoaderPerParent() {
        ClassLoader loader = PekkoClassLoader.of(app);
        assertThat(PekkoClassLoader.of(app)).isSameAs(loader);
        assertThat(PekkoClassLoader.of(loader)).isSameAs(loader);
        assertThat(loader.getParent()).isSameAs(app);
    }

    @Test
    void tellsPekkoJarsByName() throws Exception {
        assertThat(PekkoClassLoader.inPekkoJar(new URL("jar:file:/lib/pekko-actor_2.13-1.7.0.jar!/META-INF/MANIFEST.MF"))).isTrue();
        assertThat(PekkoClassLoader.inPekkoJar(new URL("jar:file:/pekko-x/janino-3.1.12.jar!/META-INF/MANIFEST.MF"))).isFalse();
        assertThat(PekkoClassLoader.inPekkoJar(new URL("file:/classes/META-INF/MANIFEST.MF"))).isFalse();
    }

    /** What Pekko's version check reads a module by: its manifest's title or bundle name ({@code pekko-actor}). */
    private static boolean isPekkoModule(URL manifest) {
        try (var in = manifest.openStream()) {
            var attributes = new Manifest(in).getMainAttributes();
            String title = attributes.getValue("Implementation-Title");
            String bundle = attributes.getValue("Bundle-Name");
            return title != null && title.startsWith("pekko-") || bundle != null && bundle.startsWith("pekko-");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
