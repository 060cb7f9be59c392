package io.sluice.common.settings;

/** Who may change a setting. */
public enum Scope {
    /** Fixed for a node's life: the config file, {@code SLUICE_*} variables, {@code --conf} and {@code -D}. */
    NODE,
    /**
     * Fixed for a node's life and read only as a {@code -D} system property, never from the config
     * file, a variable or {@code --conf}: security switches that a stray variable or a shared file
     * must not flip.
     */
    PROPERTY,
    /** Also per session: a client's {@code SET name = value} changes it for the statements after it. */
    SESSION
}
