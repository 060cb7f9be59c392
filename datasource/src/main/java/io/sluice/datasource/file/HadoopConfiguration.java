package io.sluice.datasource.file;

import org.apache.hadoop.conf.Configuration;

/**
 * The one Hadoop {@link Configuration} through which every file of a node is opened, so that
 * file://, hdfs:// and (with the connector on the class path) s3a:// are configured in one place.
 */
public final class HadoopConfiguration {
    private static final Configuration SHARED = new Configuration();

    private HadoopConfiguration() {
    }

    /** The shared configuration. Callers must not modify it. */
    public static Configuration shared() {
        return SHARED;
    }
}
