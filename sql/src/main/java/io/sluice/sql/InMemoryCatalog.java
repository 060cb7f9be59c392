package io.sluice.sql;

import static java.util.Objects.requireNonNull;

import io.sluice.common.NameSuggestions;
import io.sluice.common.SluiceException;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.source.TableSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * A thread-safe catalog held in memory. Names match case-insensitively, like unquoted SQL names do
 * in most engines, so {@code SELECT * FROM Lineitem} finds a table registered as {@code lineitem}.
 *
 * <p>A catalog may lie over a parent ({@link #layeredOver}): names it defines itself win, others
 * are looked up in the parent, and changes go only to this one. A client session's catalog lies
 * over the cluster's shared one, so a client can read shared tables but never replace them.
 */
public final class InMemoryCatalog implements Catalog {
    private final ConcurrentMap<String, TableSource> tables = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, LogicalPlan> views = new ConcurrentHashMap<>();
    private final InMemoryCatalog parent;

    /** An empty catalog with no parent. */
    public InMemoryCatalog() {
        this(null);
    }

    private InMemoryCatalog(InMemoryCatalog parent) {
        this.parent = parent;
    }

    /** An empty catalog whose lookups fall back to {@code parent}; its changes stay its own. */
    public static InMemoryCatalog layeredOver(InMemoryCatalog parent) {
        return new InMemoryCatalog(requireNonNull(parent, "parent is null"));
    }

    /** Registers a table under {@code source.name()}, replacing one of the same name. */
    public void register(TableSource source) {
        requireNonNull(source, "source is null");
        tables.put(key(source.name()), source);
    }

    /** Whether a table (not a view) of this name is registered. */
    public boolean hasTable(String name) {
        return tables.containsKey(key(requireNonNull(name, "name is null")));
    }

    /** Removes the named table; returns whether there was one. */
    public boolean drop(String name) {
        return tables.remove(key(requireNonNull(name, "name is null"))) != null;
    }

    /** Registered table names as they were registered, sorted. */
    @Override
    public List<String> tableNames() {
        List<String> names = new ArrayList<>();
        for (TableSource source : tables.values()) {
            names.add(source.name());
        }
        if (parent != null) {
            parent.tableNames().stream().filter(n -> !tables.containsKey(key(n))).forEach(names::add);
        }
        names.sort(String.CASE_INSENSITIVE_ORDER);
        return names;
    }

    /**
     * Registers a view; its name then hides a table of the same name. Without {@code replace}, an
     * existing view of that name is an error.
     */
    public void registerView(String name, LogicalPlan plan, boolean replace) {
        requireNonNull(name, "name is null");
        requireNonNull(plan, "plan is null");
        if (replace) {
            views.put(key(name), plan);
        } else if (views.putIfAbsent(key(name), plan) != null) {
            throw new SluiceException("view '" + name + "' already exists; use CREATE OR REPLACE VIEW to replace it");
        }
    }

    /** Registered view names, lower-cased, sorted. */
    @Override
    public List<String> viewNames() {
        List<String> names = new ArrayList<>(views.keySet());
        if (parent != null) {
            parent.viewNames().stream().filter(n -> !views.containsKey(n)).forEach(names::add);
        }
        names.sort(String.CASE_INSENSITIVE_ORDER);
        return names;
    }

    /** Removes the named view; returns whether there was one. */
    public boolean dropView(String name) {
        return views.remove(key(requireNonNull(name, "name is null"))) != null;
    }

    @Override
    public LogicalPlan view(String name) {
        String key = key(requireNonNull(name, "name is null"));
        LogicalPlan own = views.get(key);
        if (own != null || parent == null || tables.containsKey(key)) {
            return own; // a table of this catalog hides the parent's view of that name
        }
        return parent.view(name);
    }

    /** The table of that name here or in a parent, or null. */
    private TableSource find(String name) {
        TableSource own = tables.get(key(name));
        return own != null || parent == null ? own : parent.find(name);
    }

    @Override
    public TableSource table(String name) {
        requireNonNull(name, "name is null");
        TableSource source = find(name);
        if (source == null) {
            List<String> known = new ArrayList<>(tableNames());
            known.addAll(viewNames()); // a view is a table to the user who misspelt one
            known.sort(String.CASE_INSENSITIVE_ORDER);
            throw new SluiceException("unknown table '" + name + "';" + NameSuggestions.didYouMean(name, known)
                    + " known tables: "
                    + (known.isEmpty() ? "(none)" : String.join(", ", known)));
        }
        return source;
    }

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
