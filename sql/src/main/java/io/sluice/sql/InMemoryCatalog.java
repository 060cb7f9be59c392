package io.sluice.sql;

import static java.util.Objects.requireNonNull;

import io.sluice.common.NameSuggestions;
import io.sluice.common.SluiceException;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.source.TableSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * A session's catalog: the databases, tables and views of a {@link CatalogDatabases} (kept by a
 * {@link CatalogStore} when it has one, and possibly shared with other sessions), plus this
 * session's current database ({@link #use}) and its temporary tables and views, which no store
 * ever sees. Names match case-insensitively, like unquoted SQL names do in most engines. An
 * unqualified name is a temporary view or table if there is one, else an object of the current
 * database; {@code db.name} is always the database's. Thread-safe.
 *
 * <p>A catalog may lie over a parent ({@link #layeredOver}): names it defines itself win, others
 * are looked up in the parent, and changes go only to this one. A client session's catalog lies
 * over the cluster's shared one, so a client can read shared tables but never replace them;
 * {@link #sessionOf} instead makes a session whose database changes go to the shared catalog.
 */
public final class InMemoryCatalog implements Catalog {
    private final ConcurrentMap<String, TableSource> tempTables = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, LogicalPlan> tempViews = new ConcurrentHashMap<>();
    private final InMemoryCatalog parent;
    private final CatalogDatabases databases;
    private volatile String currentDatabase = CatalogDatabase.DEFAULT;
    private volatile SessionFunctions functions = SessionFunctions.NONE;

    /** An empty catalog with the database {@code default}, kept nowhere. */
    public InMemoryCatalog() {
        this(null, CatalogDatabases.stored(CatalogStore.NONE));
    }

    private InMemoryCatalog(InMemoryCatalog parent, CatalogDatabases databases) {
        this.parent = parent;
        this.databases = requireNonNull(databases, "databases is null");
        if (parent != null) {
            currentDatabase = parent.currentDatabase;
        }
    }

    /** A catalog holding what {@code store} holds, saving every change of a database back to it. */
    public static InMemoryCatalog stored(CatalogStore store) {
        return new InMemoryCatalog(null, CatalogDatabases.stored(store));
    }

    /** An empty catalog whose lookups fall back to {@code parent}; its changes stay its own. */
    public static InMemoryCatalog layeredOver(InMemoryCatalog parent) {
        requireNonNull(parent, "parent is null");
        return new InMemoryCatalog(parent, CatalogDatabases.layeredOver(parent.databases));
    }

    /**
     * A session of {@code shared}: its databases, tables and views are {@code shared}'s (changes
     * go there, and to its store), while the current database and temporary names are its own.
     */
    public static InMemoryCatalog sessionOf(InMemoryCatalog shared) {
        requireNonNull(shared, "shared is null");
        return new InMemoryCatalog(shared, shared.databases);
    }

    public CatalogDatabases databases() {
        return databases;
    }

    // ---- temporary tables and views: never stored

    /** Registers a temporary table under {@code source.name()}, replacing one of the same name. */
    public void register(TableSource source) {
        requireNonNull(source, "source is null");
        tempTables.put(key(source.name()), source);
    }

    /** Makes {@code sessionFunctions} the functions this catalog's SQL calls after the built-in ones (a session's own). */
    public void useFunctions(SessionFunctions sessionFunctions) {
        this.functions = requireNonNull(sessionFunctions, "sessionFunctions is null");
    }

    @Override
    public SessionFunctions functions() {
        return functions;
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
        if (!name.contains(".") && tempViews.remove(key(name)) != null) {
            return true;
        }
        Qualified q = qualify(name, currentDatabase);
        return databases.dropView(q.database(), q.name());
    }

    // ---- databases and their objects

    @Override
    public String currentDatabase() {
        return currentDatabase;
    }

    /** Makes {@code database} the one unqualified names mean; an unknown one is an error naming it. */
    public void use(String database) {
        currentDatabase = databases.database(database).name();
    }

    public boolean createDatabase(CatalogDatabase database, boolean ifNotExists) {
        return databases.create(database, ifNotExists);
    }

    /** {@link CatalogDatabases#drop}; this session's current database becomes {@code default} if it was dropped. */
    public List<CatalogTable> dropDatabase(String name, boolean ifExists, boolean cascade) {
        List<CatalogTable> dropped = databases.drop(name, ifExists, cascade);
        if (databases.find(currentDatabase) == null) {
            currentDatabase = CatalogDatabase.DEFAULT;
        }
        return dropped;
    }

    public CatalogDatabase database(String name) {
        return databases.database(name);
    }

    public List<String> databaseNames() {
        return databases.names();
    }

    /** The database's table of that name (qualified, or in the current database), or null. */
    public CatalogTable catalogTable(String name) {
        Qualified q = qualify(requireNonNull(name, "name is null"), currentDatabase);
        return databases.table(q.database(), q.name());
    }

    /** The database's view of that name (qualified, or in the current database), or null. */
    public CatalogView catalogView(String name) {
        Qualified q = qualify(requireNonNull(name, "name is null"), currentDatabase);
        return databases.view(q.database(), q.name());
    }

    /** Whether a table or view of that name would stand in the way of creating one here (a parent's would not). */
    public boolean nameTaken(String name) {
        Qualified q = qualify(requireNonNull(name, "name is null"), currentDatabase);
        return databases.holds(q.database(), q.name());
    }

    public void createTable(CatalogTable table) {
        databases.createTable(table);
    }

    public void replaceTable(CatalogTable table) {
        databases.replaceTable(table);
    }

    /** Removes the table and returns it, or returns null when there is none; a view of that name is an error. */
    public CatalogTable dropTable(String name) {
        Qualified q = qualify(name, currentDatabase);
        if (databases.table(q.database(), q.name()) == null && databases.view(q.database(), q.name()) != null) {
            throw new SluiceException("'" + name + "' is a view; use DROP VIEW to drop it");
        }
        return databases.dropTable(q.database(), q.name());
    }

    public void renameTable(CatalogTable table, CatalogTable renamed) {
        databases.renameTable(table, renamed);
    }

    public void createView(CatalogView view, boolean replace) {
        databases.createView(view, replace);
    }

    /** One name SHOW TABLES lists: database ("" for a temporary one), name, kind (table or view). */
    public record CatalogEntry(String database, String name, String kind, boolean temporary) {
    }

    /** The tables and views of a database by name, with the temporary ones when it is the current database. */
    public List<CatalogEntry> entries(String database) {
        String db = databases.database(database).name();
        List<CatalogEntry> out = new ArrayList<>();
        if (db.equals(currentDatabase)) {
            tempNames(true).forEach(n -> out.add(new CatalogEntry("", n, "view", true)));
            tempNames(false).forEach(n -> out.add(new CatalogEntry("", n, "table", true)));
        }
        out.addAll(databases.entries(db).values());
        out.sort(Comparator.comparing((CatalogEntry e) -> key(e.name())));
        return out;
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
        return names("table");
    }

    /** Temporary views, then the current database's views, by name, sorted. */
    @Override
    public List<String> viewNames() {
        return names("view");
    }

    private List<String> names(String kind) {
        List<String> names = new ArrayList<>();
        entries(currentDatabase).stream().filter(e -> e.kind().equals(kind)).forEach(e -> names.add(e.name()));
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
        Qualified q = qualify(name, database);
        CatalogView view = databases.find(q.database()) == null ? null : databases.view(q.database(), q.name());
        return view == null ? null : StoredViews.plan(view, this);
    }

    /** The table {@code name} means in {@code database}, temporary ones not looked at. */
    TableSource table(String name, String database) {
        Qualified q = qualify(name, database);
        if (databases.find(q.database()) == null) {
            databases.database(q.database()); // unknown database: the error names it
        }
        CatalogTable table = databases.table(q.database(), q.name());
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
        databases.entries(database).values().forEach(e -> known.add(e.name()));
        known.sort(String.CASE_INSENSITIVE_ORDER);
        String unqualified = name.substring(name.indexOf('.') + 1);
        return new SluiceException("unknown table '" + name + "';" + NameSuggestions.didYouMean(unqualified, known)
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

    /** A name split into database and lower-case object name. */
    private record Qualified(String database, String name) {
    }

    private static Qualified qualify(String name, String database) {
        int dot = name.indexOf('.');
        if (dot > 0 && dot < name.length() - 1) {
            return new Qualified(CatalogDatabase.checkName(name.substring(0, dot)), key(name.substring(dot + 1)));
        }
        return new Qualified(database, key(name));
    }

    static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
