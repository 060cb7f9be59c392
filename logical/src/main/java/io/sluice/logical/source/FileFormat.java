package io.sluice.logical.source;

import io.sluice.common.SluiceException;

/** File formats a table can be stored as. */
public enum FileFormat {
    CSV, PARQUET, JSON;

    public static FileFormat parse(String name) {
        for (FileFormat f : values()) {
            if (f.name().equalsIgnoreCase(name)) {
                return f;
            }
        }
        throw new SluiceException("unknown file format '" + name + "'; expected CSV, PARQUET or JSON");
    }
}
