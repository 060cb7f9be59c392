package io.sluice.api;

import io.sluice.datasource.file.HadoopConfiguration;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * A reader's or writer's options split into the format's and Hadoop keys: an option
 * {@code sluice.hadoop.K} is the Hadoop key {@code K} for that read or write only, checked as
 * {@code SET sluice.hadoop.K} is (node-only keys and {@code ${...}} values refused by name).
 */
record HadoopOptions(Map<String, String> format, Map<String, String> hadoop) {
    static HadoopOptions of(Map<String, String> options) {
        Map<String, String> format = new TreeMap<>();
        Map<String, String> hadoop = new TreeMap<>();
        options.forEach((name, value) -> {
            if (name.startsWith(HadoopConfiguration.PREFIX)) {
                String key = name.substring(HadoopConfiguration.PREFIX.length());
                HadoopConfiguration.checkSessionKey(key);
                HadoopConfiguration.checkSessionValue(key, value);
                hadoop.put(key, value);
            } else {
                format.put(name, value);
            }
        });
        return new HadoopOptions(Collections.unmodifiableMap(format), Collections.unmodifiableMap(hadoop));
    }
}
