package io.sluice.common;

import java.util.List;

/**
 * The classes a module allows on the wire between nodes: every class whose instances a stage plan
 * or a cluster message may hold. A node reads nothing else: the cluster's Kryo requires
 * registration, so bytes naming any other class are refused before that class is even loaded.
 *
 * <p>Modules announce their list through {@link java.util.ServiceLoader} (a
 * {@code META-INF/services/io.sluice.common.WireClasses} file). Registration ids follow the
 * order of the lists (providers sorted by class name), so every node of a cluster must run the same
 * build; a class added to a plan must be added here too (a test in {@code cluster} checks that every
 * operator, logical node and expression is listed).
 */
public interface WireClasses {
    /** The classes, in a fixed order. Records are read back through their canonical constructor. */
    List<Class<?>> classes();
}
