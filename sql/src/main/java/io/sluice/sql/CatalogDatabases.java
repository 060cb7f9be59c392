package io.sluice.sql;

import static java.util.Objects.requireNonNull;

import io.sluice.common.NameSuggestions;
import io.sluice.common.SluiceException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The databases of a catalog and their tables and views (Spark's external catalog), kept by a
 * {@link CatalogStore} when it has one; shared by every session that works on it. Object names
 * are lower-case keys. May lie over a parent: its own entries win, the others are the parent's,
 * and changes go to this one only (never to the parent's store). Changes are serialized; reads
 * take no lock. Thread-safe.
 */
public final class CatalogDatabases {
    /** This catalog's own databases by name, each replaced whole on a change. */
    private final ConcurrentMap<String, Objects> databases = new ConcurrentHashMap<>();
    private final CatalogDatabases parent;
    private final CatalogStore store;

    /** One database and its objects, by lower-case name; immutable. */
    private record Objects(CatalogDatabase database, Map<String, CatalogTable> tables, Map<String, CatalogView> views) {
        Objects {
            tables = Map.copyOf(tables);
            views = Map.copyOf(views);
        }

        static Objects empty(CatalogDatabase database) {
            return new Objects(database, Map.of(), Map.of());
        }

        Objects withTable(String key, CatalogTable table) {
            Map<String, CatalogTable> changed = new TreeMap<>(tables);
            if (table == null) {
                changed.remove(key);
            } else {
                changed.put(key, table);
            }
            return new Objects(database, changed, views);
        }

        Objects withView(String key, CatalogView view) {
            Map<String, CatalogView> changed = new TreeMap<>(views);
            if (view == null) {
                changed.remove(key);
            } else {
                changed.put(key, view);
            }
            return new Objects(database, tables, changed);
        }

        boolean holds(String key) {
            return tables.containsKey(key) || views.containsKey(key);
        }

        CatalogStore.DatabaseState state() {
            return new CatalogStore.DatabaseState(database,
                    tables.values().stream().sorted(Comparator.comparing(CatalogTable::name)).toList(),
                    views.values().stream().sorted(Comparator.comparing(CatalogView::name)).toList());
        }
    }

    private CatalogDatabases(CatalogDatabases parent, CatalogStore store) {
        this.parent = parent;
        this.store = requireNonNull(store, "store is null");
    }

    /** What {@code store} holds, with the database {@code default} whether stored or not. */
    public static CatalogDatabases stored(CatalogStore store) {
        CatalogDatabases catalog = new CatalogDatabases(null, store);
        for (CatalogStore.DatabaseState state : store.load()) {
            Map<String, CatalogTable> tables = new LinkedHashMap<>();
            state.tables().forEach(t -> tables.put(InMemoryCatalog.key(t.name()), t));
            Map<String, CatalogView> views = new LinkedHashMap<>();
            state.views().forEach(v -> views.put(InMemoryCatalog.key(v.name()), v));
            catalog.databases.put(state.database().name(), new Objects(state.database(), tables, views));
        }
        catalog.databases.computeIfAbsent(CatalogDatabase.DEFAULT,
                d -> Objects.empty(CatalogDatabase.named(CatalogDatabase.DEFAULT)));
        return catalog;
    }

    /** No databases of its own; lookups fall back to {@code parent}, changes stay here and are kept nowhere. */
    public static CatalogDatabases layeredOver(CatalogDatabases parent) {
        return new CatalogDatabases(requireNonNull(parent, "parent is null"), CatalogStore.NONE);
    }

    /** Creates a database; returns false when it exists and {@code ifNotExists}, else an existing one is an error. */
    public synchronized boolean create(CatalogDatabase database, boolean ifNotExists) {
        requireNonNull(database, "database is null");
        if (find(database.name()) != null) {
            if (ifNotExists) {
                return false;
            }
            throw new SluiceException("database '" + database.name() + "' already exists");
        }
        save(Objects.empty(database));
        return true;
    }

    /**
     * Drops a database (never {@code default}) and returns its tables, whose managed files the
     * caller removes; none when it does not exist and {@code ifExists}. One holding tables or
     * views is dropped only with {@code cascade}.
     */
    public synchronized List<CatalogTable> drop(String name, boolean ifExists, boolean cascade) {
        String db = CatalogDatabase.checkName(name);
        if (db.equals(CatalogDatabase.DEFAULT)) {
            throw new SluiceException("cannot drop the database 'default'");
        }
        Objects objects = databases.get(db);
        if (objects == null) {
            if (ifExists && find(db) == null) {
                return List.of();
            }
            database(name); // unknown: an error with suggestions; else the parent's
            throw new SluiceException("database '" + db + "' belongs to the shared catalog; this session cannot drop it");
        }
        if (!cascade && (!objects.tables().isEmpty() || !objects.views().isEmpty())) {
            List<String> names = new ArrayList<>(objects.tables().values().stream().map(CatalogTable::name).toList());
            objects.views().values().forEach(v -> names.add(v.name()));
            names.sort(String.CASE_INSENSITIVE_ORDER);
            throw new SluiceException("database '" + db + "' is not empty (it holds " + String.join(", ", names)
                    + "); use DROP DATABASE " + db + " CASCADE to drop it with them");
        }
        store.delete(db);
        databases.remove(db);
        return List.copyOf(objects.tables().values());
    }

    /** The database of that name; an unknown one is an error with "did you mean". */
    public CatalogDatabase database(String name) {
        CatalogDatabase found = find(CatalogDatabase.checkName(name));
        if (found == null) {
            List<String> known = names();
            throw new SluiceException("unknown database '" + name + "';" + NameSuggestions.didYouMean(name, known)
                    + " known databases: " + String.join(", ", known));
        }
        return found;
    }

    /** The database of that (normal) name, or null. */
    public CatalogDatabase find(String db) {
        Objects own = databases.get(db);
        if (own != null) {
            return own.database();
        }
        return parent == null ? null : parent.find(db);
    }

    public List<String> names() {
        List<String> names = new ArrayList<>(databases.keySet());
        if (parent != null) {
            parent.names().stream().filter(n -> !databases.containsKey(n)).forEach(names::add);
        }
        names.sort(null);
        return names;
    }

    /** The table {@code key} of database {@code db}, or null. */
    public CatalogTable table(String db, String key) {
        Objects own = databases.get(db);
        if (own != null && own.holds(key)) {
            return own.tables().get(key);
        }
        return parent == null ? null : parent.table(db, key);
    }

    /** The view {@code key} of database {@code db}, or null. */
    public CatalogView view(String db, String key) {
        Objects own = databases.get(db);
        if (own != null && own.holds(key)) {
            return own.views().get(key);
        }
        return parent == null ? null : parent.view(db, key);
    }

    /** Whether this catalog itself (not a parent) holds a table or view {@code key} in {@code db}. */
    public boolean holds(String db, String key) {
        Objects own = databases.get(db);
        return own != null && own.holds(key);
    }

    /**
     * Adds a table (its location chosen); a table or view of that name in its database is an error
     * (one of a parent's is hidden).
     */
    public synchronized void createTable(CatalogTable table) {
        requireNonNull(table.location(), "the table's location is not chosen");
        Objects objects = own(table.database());
        String k = InMemoryCatalog.key(table.name());
        if (objects.holds(k)) {
            throw new SluiceException("table or view '" + table.qualifiedName() + "' already exists");
        }
        save(objects.withTable(k, table));
    }

    /** Replaces a table by a changed definition of the same name. */
    public synchronized void replaceTable(CatalogTable table) {
        save(ownHolding(table.database(), table.name()).withTable(InMemoryCatalog.key(table.name()), table));
    }

    /** Removes the table {@code key} of {@code db} and returns it, or null when there is none. */
    public synchronized CatalogTable dropTable(String db, String key) {
        if (table(db, key) == null) {
            return null;
        }
        Objects objects = ownHolding(db, key);
        CatalogTable table = objects.tables().get(key);
        save(objects.withTable(key, null));
        return table;
    }

    /** Renames a table: {@code renamed} is the table under its new name (and, when managed, location). */
    public synchronized void renameTable(CatalogTable table, CatalogTable renamed) {
        String k = InMemoryCatalog.key(renamed.name());
        if (own(renamed.database()).holds(k)) {
            throw new SluiceException("cannot rename " + table.qualifiedName() + " to " + renamed.qualifiedName()
                    + ": a table or view of that name exists");
        }
        Objects from = ownHolding(table.database(), table.name());
        if (from.database().name().equals(renamed.database())) {
            save(from.withTable(InMemoryCatalog.key(table.name()), null).withTable(k, renamed));
        } else {
            save(own(renamed.database()).withTable(k, renamed));
            save(databases.get(from.database().name()).withTable(InMemoryCatalog.key(table.name()), null));
        }
    }

    /** Adds or (with {@code replace}) replaces a view; a table of that name is an error. */
    public synchronized void createView(CatalogView view, boolean replace) {
        Objects objects = own(view.database());
        String k = InMemoryCatalog.key(view.name());
        if (objects.tables().containsKey(k)) {
            throw new SluiceException("cannot create view '" + view.qualifiedName() + "': a table of that name exists");
        }
        if (!replace && objects.views().containsKey(k)) {
            throw new SluiceException("view '" + view.name() + "' already exists in database '" + view.database()
                    + "'; use CREATE OR REPLACE VIEW to replace it");
        }
        save(objects.withView(k, view));
    }

    /** Removes the view {@code key} of {@code db}; returns whether there was one here. */
    public synchronized boolean dropView(String db, String key) {
        Objects objects = databases.get(db);
        if (objects == null || !objects.views().containsKey(key)) {
            return false;
        }
        save(objects.withView(key, null));
        return true;
    }

    /** The tables and views of a database by lower-case name, this catalog's over its parent's. */
    public Map<String, InMemoryCatalog.CatalogEntry> entries(String db) {
        Map<String, InMemoryCatalog.CatalogEntry> out = parent == null ? new TreeMap<>() : parent.entries(db);
        Objects objects = databases.get(db);
        if (objects != null) {
            objects.tables().forEach((k, t) -> out.put(k, new InMemoryCatalog.CatalogEntry(db, t.name(), "table", false)));
            objects.views().forEach((k, v) -> out.put(k, new InMemoryCatalog.CatalogEntry(db, v.name(), "view", false)));
        }
        return out;
    }

    /** This catalog's own entry of a database known here or in a parent (made when only the parent has it). */
    private Objects own(String db) {
        Objects own = databases.get(db);
        return own != null ? own : Objects.empty(database(db));
    }

    /** This catalog's entry holding the object; one only a parent holds cannot be changed here. */
    private Objects ownHolding(String db, String name) {
        Objects own = databases.get(db);
        if (own == null || !own.holds(InMemoryCatalog.key(name))) {
            throw new SluiceException("'" + db + "." + name + "' belongs to the shared catalog; this session cannot"
                    + " change it");
        }
        return own;
    }

    /** Saves the changed database to the store, then makes it this catalog's. */
    private void save(Objects objects) {
        store.save(objects.state());
        databases.put(objects.database().name(), objects);
    }
}
