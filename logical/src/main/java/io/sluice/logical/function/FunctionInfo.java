package io.sluice.logical.function;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What {@code SHOW FUNCTIONS} and {@code DESCRIBE FUNCTION} say about one built-in function: its
 * Spark name, the other names it answers to, whether it aggregates, a usage line
 * ({@code lpad(str, len[, pad])}) and one sentence on what it returns.
 */
public record FunctionInfo(String name, List<String> aliases, Kind kind, String usage, String description) {
    /** A scalar function gives one value per row; an aggregate one per group. */
    public enum Kind { SCALAR, AGGREGATE }

    public FunctionInfo {
        requireNonNull(name, "name is null");
        aliases = List.copyOf(aliases);
        requireNonNull(kind, "kind is null");
        requireNonNull(usage, "usage is null");
        requireNonNull(description, "description is null");
    }
}
