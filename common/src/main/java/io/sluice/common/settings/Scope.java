package io.sluice.common.settings;

/** Who may change a setting. */
public enum Scope {
    /** Fixed for a node's life: the config file, {@code SLUICE_*} variables, {@code --conf} and {@code -D}. */
    NODE,
    /** Also per session: a client's {@code SET name = value} changes it for the statements after it. */
    SESSION
}
