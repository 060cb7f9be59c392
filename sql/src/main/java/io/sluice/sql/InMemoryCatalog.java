package io.sluice.sql;

import static java.util.Objects.requireNonNull;

import io.sluice.common.NameSuggestions;
import io.sluice.common.SluiceException;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.source.TableSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * A thread-safe catalog: databases holding tables and views ({@link CatalogTable},
 * {@link CatalogView}), kept by a {@link CatalogStore} when it has one, and temporary tables and
 * views that no store ever sees. Names match case-insensitively, like unquoted SQL names do in most
 * engines. An unqualified name is a temporary view or table if there is one, else an object of the
 * current database ({@link #use}); {@code db.name} is always the database's.
 *
 * <p>A catalog may lie over a parent ({@link #layeredOver}): names it defines itself win, others
 * are looked up in the parent, and changes go only to this one (never to the parent's store). A
 * client session's catalog lies over the cluster's shared one, so a client can read shared tables
 * but never replace them. Changes are serialized on the catalog; reads take no lock.
 */
public final class InMemoryCatalog implements Catalog {
    private final ConcurrentMap<String, TableSource> tempTables = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, LogicalPlan> tempViews = new ConcurrentHashMap<>();
    /** This catalog's own databases by name, each replaced whole on a change. */
    private final ConcurrentMap<String, DatabaseObjects> databases = new ConcurrentHashMap<>();
    private final InMemoryCatalog parent;
    private final CatalogStore store;
    private volatile String currentDatabase = CatalogDatabase.DEFAULT;

    /** One database and its objects, by lower-case name; immutable. */
    private record DatabaseObjects(CatalogDatabase database, Map<String, CatalogTable> tables,
            Map<String, CatalogView> views) {
        DatabaseObjects {
            tables = Map.copyOf(tables);
            views = Map.copyOf(views);
        }

        static DatabaseObjects empty(CatalogDatabase database) {
            return new DatabaseObjects(database, Map.of(), Map.of());
        }

        DatabaseObjects withTable(String key, CatalogTable table) {
            Map<String, CatalogTable> changed = new TreeMap<>(tables);
            if (table == null) {
                changed.remove(key);
            } else {
                changed.put(key, table);
            }
            return new DatabaseObjects(database, changed, views);
        }

        DatabaseObjects withView(String key, CatalogView view) {
            Map<String, CatalogView> changed = new TreeMap<>(views);
            if (view == null) {
                changed.remove(key);
            } else {
                changed.put(key, view);
            }
            return new DatabaseObjects(database, tables, changed);
        }

        CatalogStore.DatabaseState state() {
            return new CatalogStore.DatabaseState(database,
                    tables.values().stream().sorted(Comparator.comparing(CatalogTable::name)).toList(),
                    views.values().stream().sorted(Comparator.comparing(CatalogView::name)).toList());
        }
    }

    /** An empty catalog with the database {@code default}, kept nowhere. */
    public InMemoryCatalog() {
        this(null, CatalogStore.NONE);
        databases.put(CatalogDatabase.DEFAULT, DatabaseObjects.empty(CatalogDatabase.named(CatalogDatabase.DEFAULT)));
    }

    private InMemoryCatalog(InMemoryCatalog parent, CatalogStore store) {
        this.parent = parent;
        this.store = requireNonNull(store, "store is null");
    }

    /** A catalog holding what {@code store} holds, saving every change of a database back to it. */
    public static InMemoryCatalog stored(CatalogStore store) {
        InMemoryCatalog catalog = new InMemoryCatalog(null, store);
        for (CatalogStore.DatabaseState state : store.load()) {
            Map<String, CatalogTable> tables = new LinkedHashMap<>();
            state.tables().forEach(t -> tables.put(key(t.name()), t));
            Map<String, CatalogView> views = new LinkedHashMap<>();
            state.views().forEach(v -> views.put(key(v.name()), v));
            catalog.databases.put(state.database().name(), new DatabaseObjects(state.database(), tables, views));
        }
        catalog.databases.computeIfAbsent(CatalogDatabase.DEFAULT,
                d -> DatabaseObjects.empty(CatalogDatabase.named(CatalogDatabase.DEFAULT)));
        return catalog;
    }

    /** An empty catalog whose lookups fall back to {@code parent}; its changes stay its own. */
    public static InMemoryCatalog layeredOver(InMemoryCatalog parent) {
        InMemoryCatalog layer = new InMemoryCatalog(requireNonNull(parent, "parent is null"), CatalogStore.NONE);
        layer.currentDatabase = parent.currentDatabase;
        return layer;
    }

    // ---- temporary tables and views: never stored

    /** Registers a temporary table under {@code source.name()}, replacing one of the same name. */
    public void register(TableSource source) {
        requireNonNull(source, "source is null");
        tempTables.put(key(source.name()), source);
    }

    /** Whether a temporary table of this name is registered here. */
    public boolean hasTable(String name) {
        return tempTables.containsKey(key(requireNonNull(name, "name is null")));
    }

    /** Removes the named temporary table; returns whether there was one. */
    public boolean drop(String name) {
        return tempTables.remove(key(requireNonNull(name, "name is null"))) != null;
    }

    /**
     * Registers a temporary view; its name then hides a table of the same name. Without
     * {@code replace}, an existing view of that name is an error.
     */
    public void registerView(String name, LogicalPlan plan, boolean replace) {
        requireNonNull(name, "name is null");
        requireNonNull(plan, "plan is null");
        if (replace) {
            tempViews.put(key(name), plan);
        } else if (tempViews.putIfAbsent(key(name), plan) != null) {
            throw new SluiceException("view '" + name + "' already exists; use CREATE OR REPLACE VIEW to replace it");
        }
    }

    /** Removes the named view: a temporary one if there is one, else the database's; returns whether there was one. */
    public boolean dropView(String name) {
        requireNonNull(name, "name is null");
        if (tempViews.remove(key(name)) != null) {
            return true;
        }
        synchronized (this) {
            QualifiedKey q = qualify(name);
            DatabaseObjects objects = databases.get(q.database());
            if (objects == null || !objects.views().containsKey(q.name())) {
                return false;
            }
            save(objects.withView(q.name(), null));
            return true;
        }
    }

    // ---- databases

    @Override
    public String currentDatabase() {
        return currentDatabase;
    }

    /** Makes {@code database} the one unqualified names mean; an unknown one is an error naming it. */
    public void use(String database) {
        currentDatabase = database(database).name();
    }

    /** Creates a database; returns false when it exists and {@code ifNotExists}, else an existing one is an error. */
    public synchronized boolean createDatabase(CatalogDatabase database, boolean ifNotExists) {
        requireNonNull(database, "database is null");
        if (findDatabase(database.name()) != null) {
            if (ifNotExists) {
                return false;
            }
            throw new SluiceException("database '" + database.name() + "' already exists");
        }
        save(DatabaseObjects.empty(database));
        return true;
    }

    /**
     * Drops a database (never {@code default}) and returns its tables, whose managed files the
     * caller removes. One holding tables or views is dropped only with {@code cascade}.
     */
    public synchronized List<CatalogTable> dropDatabase(String name, boolean ifExists, boolean cascade) {
        String db = CatalogDatabase.checkName(name);
        if (db.equals(CatalogDatabase.DEFAULT)) {
            throw new SluiceException("cannot drop the database 'default'");
        }
        DatabaseObjects objects = databases.get(db);
        if (objects == null) {
            if (ifExists && findDatabase(db) == null) {
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
        if (currentDatabase.equals(db)) {
            currentDatabase = CatalogDatabase.DEFAULT;
        }
        return List.copyOf(objects.tables().values());
    }

    /** The database of that name; an unknown one is an error with "did you mean". */
    public CatalogDatabase database(String name) {
        CatalogDatabase found = findDatabase(CatalogDatabase.checkName(name));
        if (found == null) {
            List<String> known = databaseNames();
            throw new SluiceException("unknown database '" + name + "';" + NameSuggestions.didYouMean(name, known)
                    + " known databases: " + String.join(", ", known));
        }
        return found;
    }

    public List<String> databaseNames() {
        List<String> names = new ArrayList<>(databases.keySet());
        if (parent != null) {
            parent.databaseNames().stream().filter(n -> !databases.containsKey(n)).forEach(names::add);
        }
        names.sort(null);
        return names;
    }

    private CatalogDatabase findDatabase(String db) {
        DatabaseObjects own = databases.get(db);
        if (own != null) {
            return own.database();
        }
        return parent == null ? null : parent.findDatabase(db);
    }

    // ---- tables and views of databases

    /** The database's table of that name (qualified, or in the current database), or null. */
    public CatalogTable catalogTable(String name) {
        QualifiedKey q = qualify(requireNonNull(name, "name is null"));
        return findTable(q.database(), q.name());
    }

    /** The database's view of that name (qualified, or in the current database), or null. */
    public CatalogView catalogView(String name) {
        QualifiedKey q = qualify(requireNonNull(name, "name is null"));
        return findView(q.database(), q.name());
    }

    /** Adds a table (its location chosen); a table or view of that name in its database is an error. */
    public synchronized void createTable(CatalogTable table) {
        requireNonNull(table.location(), "the table's location is not chosen");
        DatabaseObjects objects = ownDatabase(table.database());
        String k = key(table.name());
        if (findTable(table.database(), k) != null || findView(table.database(), k) != null) {
            throw new SluiceException("table or view '" + table.qualifiedName() + "' already exists");
        }
        save(objects.withTable(k, table));
    }

    /** Replaces a table by a changed definition of the same name. */
    public synchronized void replaceTable(CatalogTable table) {
        DatabaseObjects objects = ownTableDatabase(table.database(), table.name());
        save(objects.withTable(key(table.name()), table));
    }

    /** Removes the table and returns it, or returns null when there is none; a view of that name is an error. */
    public synchronized CatalogTable dropTable(String name) {
        QualifiedKey q = qualify(name);
        if (findTable(q.database(), q.name()) == null) {
            if (findView(q.database(), q.name()) != null) {
                throw new SluiceException("'" + name + "' is a view; use DROP VIEW to drop it");
            }
            return null;
        }
        DatabaseObjects objects = ownTableDatabase(q.database(), q.name());
        CatalogTable table = objects.tables().get(q.name());
        save(objects.withTable(q.name(), null));
        return table;
    }

    /** Renames a table: {@code renamed} is the table under its new name (and, when managed, location). */
    public synchronized void renameTable(CatalogTable table, CatalogTable renamed) {
        String k = key(renamed.name());
        if (findTable(renamed.database(), k) != null || findView(renamed.database(), k) != null) {
            throw new SluiceException("cannot rename " + table.qualifiedName() + " to " + renamed.qualifiedName()
                    + ": a table or view of that name exists");
        }
        DatabaseObjects from = ownTableDatabase(table.database(), table.name());
        DatabaseObjects target = ownDatabase(renamed.database());
        if (from.database().name().equals(target.database().name())) {
            save(from.withTable(key(table.name()), null).withTable(k, renamed));
        } else {
            save(target.withTable(k, renamed));
            save(databases.get(from.database().name()).withTable(key(table.name()), null));
        }
    }

    /** Adds or (with {@code replace}) replaces a view of a database; a table of that name is an error. */
    public synchronized void createView(CatalogView view, boolean replace) {
        DatabaseObjects objects = ownDatabase(view.database());
        String k = key(view.name());
        if (findTable(view.database(), k) != null) {
            throw new SluiceException("cannot create view '" + view.qualifiedName() + "': a table of that name exists");
        }
        if (!replace && findView(view.database(), k) != null) {
            throw new SluiceException("view '" + view.qualifiedName() + "' already exists; use CREATE OR REPLACE VIEW to"
                    + " replace it");
        }
        save(objects.withView(k, view));
    }

    /** The tables and views of a database, temporary ones first when it is the current database. */
    public List<CatalogEntry> entries(String database) {
        String db = database(database).name();
        List<CatalogEntry> out = new ArrayList<>();
        if (db.equals(currentDatabase)) {
            tempNames(true).forEach(n -> out.add(new CatalogEntry("", n, "view", true)));
            tempNames(false).forEach(n -> out.add(new CatalogEntry("", n, "table", true)));
        }
        Map<String, CatalogEntry> stored = new TreeMap<>();
        collect(db, stored);
        out.addAll(stored.values());
        out.sort(Comparator.comparing((CatalogEntry e) -> e.name().toLowerCase(Locale.ROOT)));
        return out;
    }

    /** One name SHOW TABLES lists: database ("" for a temporary one), name, kind (table or view). */
    public record CatalogEntry(String database, String name, String kind, boolean temporary) {
    }

    private void collect(String db, Map<String, CatalogEntry> out) {
        if (parent != null) {
            parent.collect(db, out);
        }
        DatabaseObjects objects = databases.get(db);
        if (objects != null) {
            objects.tables().forEach((k, t) -> out.put(k, new CatalogEntry(db, t.name(), "table", false)));
            objects.views().forEach((k, v) -> out.put(k, new CatalogEntry(db, v.name(), "view", false)));
        }
    }

    private List<String> tempNames(boolean views) {
        List<String> names = new ArrayList<>();
        if (views) {
            names.addAll(tempViews.keySet());
        } else {
            tempTables.values().forEach(t -> names.add(t.name()));
        }
        if (parent != null) {
            parent.tempNames(views).stream().filter(n -> names.stream().noneMatch(n::equalsIgnoreCase)).forEach(names::add);
        }
        return names;
    }

    // ---- Catalog

    /** Temporary tables, then the current database's tables, by name, sorted. */
    @Override
    public List<String> tableNames() {
        List<String> names = new ArrayList<>(tempNames(false));
        entries(currentDatabase).stream().filter(e -> !e.temporary() && e.kind().equals("table"))
                .forEach(e -> names.add(e.name()));
        names.sort(String.CASE_INSENSITIVE_ORDER);
        return names;
    }

    /** Temporary views, then the current database's views, by name, sorted. */
    @Override
    public List<String> viewNames() {
        List<String> names = new ArrayList<>(tempNames(true));
        entries(currentDatabase).stream().filter(e -> !e.temporary() && e.kind().equals("view"))
                .forEach(e -> names.add(e.name()));
        names.sort(String.CASE_INSENSITIVE_ORDER);
        return names;
    }

    @Override
    public LogicalPlan view(String name) {
        requireNonNull(name, "name is null");
        LogicalPlan temp = tempView(key(name));
        if (temp != null || tempTable(key(name)) != null) {
            return temp; // a temporary table hides a database's view of that name
        }
        return view(name, currentDatabase);
    }

    @Override
    public TableSource table(String name) {
        requireNonNull(name, "name is null");
        TableSource temp = tempTable(key(name));
        if (temp != null) {
            return temp;
        }
        return table(name, currentDatabase);
    }

    /** The view {@code name} means in {@code database}, temporary ones not looked at (a stored view's own names). */
    LogicalPlan view(String name, String database) {
        QualifiedKey q = qualify(name, database);
        CatalogView view = findDatabase(q.database()) == null ? null : findView(q.database(), q.name());
        return view == null ? null : StoredViews.plan(view, this);
    }

    /** The table {@code name} means in {@code database}, temporary ones not looked at. */
    TableSource table(String name, String database) {
        QualifiedKey q = qualify(name, database);
        if (name.contains(".") && findDatabase(q.database()) == null) {
            database(q.database()); // unknown database: the error names it
        }
        CatalogTable table = findTable(q.database(), q.name());
        if (table == null) {
            throw unknownTable(name, q.database());
        }
        return table.source();
    }

    private SluiceException unknownTable(String name, String database) {
        List<String> known = new ArrayList<>();
        if (database.equals(currentDatabase)) {
            known.addAll(tempNames(false));
            known.addAll(tempNames(true));
        }
        if (findDatabase(database) != null) {
            Map<String, CatalogEntry> stored = new TreeMap<>();
            collect(database, stored);
            stored.values().forEach(e -> known.add(e.name()));
        }
        known.sort(String.CASE_INSENSITIVE_ORDER);
        return new SluiceException("unknown table '" + name + "';" + NameSuggestions.didYouMean(name, known)
                + " known tables" + (database.equals(CatalogDatabase.DEFAULT) ? "" : " in " + database) + ": "
                + (known.isEmpty() ? "(none)" : String.join(", ", known)));
    }

    private TableSource tempTable(String k) {
        TableSource own = tempTables.get(k);
        return own != null || parent == null || tempViews.containsKey(k) ? own : parent.tempTable(k);
    }

    private LogicalPlan tempView(String k) {
        LogicalPlan own = tempViews.get(k);
        return own != null || parent == null || tempTables.containsKey(k) ? own : parent.tempView(k);
    }

    private CatalogTable findTable(String db, String k) {
        DatabaseObjects own = databases.get(db);
        if (own != null && (own.tables().containsKey(k) || own.views().containsKey(k))) {
            return own.tables().get(k);
        }
        return parent == null ? null : parent.findTable(db, k);
    }

    private CatalogView findView(String db, String k) {
        DatabaseObjects own = databases.get(db);
        if (own != null && (own.tables().containsKey(k) || own.views().containsKey(k))) {
            return own.views().get(k);
        }
        return parent == null ? null : parent.findView(db, k);
    }

    /** This catalog's own entry of a database known here or in a parent (made when only the parent has it). */
    private DatabaseObjects ownDatabase(String db) {
        DatabaseObjects own = databases.get(db);
        return own != null ? own : DatabaseObjects.empty(database(db));
    }

    /** This catalog's entry holding the table; one only a parent holds cannot be changed here. */
    private DatabaseObjects ownTableDatabase(String db, String name) {
        DatabaseObjects own = databases.get(db);
        if (own == null || !own.tables().containsKey(key(name))) {
            throw new SluiceException("table '" + db + "." + name + "' belongs to the shared catalog; this session cannot"
                    + " change it");
        }
        return own;
    }

    /** Saves the changed database to the store, then makes it this catalog's. */
    private void save(DatabaseObjects objects) {
        store.save(objects.state());
        databases.put(objects.database().name(), objects);
    }

    /** A name split into database and lower-case object name. */
    private record QualifiedKey(String database, String name) {
    }

    private QualifiedKey qualify(String name) {
        return qualify(name, currentDatabase);
    }

    private static QualifiedKey qualify(String name, String database) {
        int dot = name.indexOf('.');
        if (dot > 0 && dot < name.length() - 1) {
            return new QualifiedKey(CatalogDatabase.checkName(name.substring(0, dot)), key(name.substring(dot + 1)));
        }
        return new QualifiedKey(database, key(name));
    }

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
