package io.sluice.api;

import java.io.File;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Hadoop's HDFS mini cluster (a NameNode and DataNodes in this JVM, on 127.0.0.1) in a class loader
 * of its own. The minicluster jar is shaded against {@code hadoop-client-api}/{@code -runtime},
 * whose classes carry the same names as the unshaded Hadoop jars Sluice ships; apart, it serves
 * HDFS and the test reaches it as any client would, through the distribution's own
 * {@code hadoop-hdfs-client}. The jars are named by the {@value #CLASSPATH_PROPERTY} system
 * property (api/pom.xml sets it for failsafe).
 */
final class MiniHdfs implements AutoCloseable {
    static final String CLASSPATH_PROPERTY = "sluice.test.minicluster.classpath";

    private final URLClassLoader loader;
    private final Object cluster;
    private final URI uri;

    private MiniHdfs(URLClassLoader loader, Object cluster, URI uri) {
        this.loader = loader;
        this.cluster = cluster;
        this.uri = uri;
    }

    /** Starts a NameNode and {@code dataNodes} DataNodes keeping their files under {@code baseDir}, and waits until they serve. */
    static MiniHdfs start(Path baseDir, int dataNodes) throws Exception {
        String classpath = System.getProperty(CLASSPATH_PROPERTY);
        if (classpath == null || classpath.contains("${")) {
            throw new IllegalStateException(CLASSPATH_PROPERTY + " does not name the minicluster jars: " + classpath);
        }
        List<URL> urls = new ArrayList<>();
        for (String jar : classpath.split(File.pathSeparator)) {
            urls.add(Path.of(jar).toUri().toURL());
        }
        URLClassLoader loader = new URLClassLoader("minicluster", urls.toArray(URL[]::new),
                ClassLoader.getPlatformClassLoader());
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        // Hadoop loads classes by name through the context loader; the threads it starts inherit it
        thread.setContextClassLoader(loader);
        try {
            Class<?> configurationClass = loader.loadClass("org.apache.hadoop.conf.Configuration");
            Object conf = configurationClass.getConstructor().newInstance();
            Method set = configurationClass.getMethod("set", String.class, String.class);
            set.invoke(conf, "hdfs.minidfs.basedir", baseDir.toString());
            set.invoke(conf, "dfs.replication", Integer.toString(Math.min(dataNodes, 3)));
            Class<?> builderClass = loader.loadClass("org.apache.hadoop.hdfs.MiniDFSCluster$Builder");
            Object builder = builderClass.getConstructor(configurationClass).newInstance(conf);
            builderClass.getMethod("numDataNodes", int.class).invoke(builder, dataNodes);
            Object cluster = builderClass.getMethod("build").invoke(builder);
            try {
                cluster.getClass().getMethod("waitActive").invoke(cluster);
                URI uri = (URI) cluster.getClass().getMethod("getURI").invoke(cluster);
                return new MiniHdfs(loader, cluster, uri);
            } catch (Exception e) {
                cluster.getClass().getMethod("shutdown").invoke(cluster);
                throw e;
            }
        } catch (Exception e) {
            loader.close();
            throw e;
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** The NameNode's URI, {@code hdfs://localhost:PORT}. */
    URI uri() {
        return uri;
    }

    @Override
    public void close() throws Exception {
        try {
            cluster.getClass().getMethod("shutdown").invoke(cluster);
        } finally {
            loader.close();
        }
    }
}
