package io.sluice.logical.sink;

import io.sluice.common.SluiceException;

/** What a write does when its target location already exists. */
public enum SaveMode {
    /** Refuse to write over an existing location (the default, as in Spark). */
    ERROR_IF_EXISTS,
    /** Replace what the location holds once the new files are complete. */
    OVERWRITE,
    /** Add the new files next to the existing ones. */
    APPEND;

    public static SaveMode parse(String name) {
        String wanted = name.replace("_", "").replace("-", "");
        for (SaveMode m : values()) {
            if (m.name().replace("_", "").equalsIgnoreCase(wanted)) {
                return m;
            }
        }
        if (wanted.equalsIgnoreCase("error") || wanted.equalsIgnoreCase("default")) {
            return ERROR_IF_EXISTS;
        }
        throw new SluiceException("unknown save mode '" + name + "'; expected error_if_exists, overwrite or append");
    }
}
