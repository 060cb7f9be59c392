package io.sluice.coordinator.catalog;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.common.SluiceException;
import io.sluice.logical.source.FileFormat;
import io.sluice.sql.CatalogDatabase;
import io.sluice.sql.CatalogStore;
import io.sluice.sql.CatalogTable;
import io.sluice.sql.CatalogView;
import io.sluice.sql.SqlDialect;
import io.sluice.sql.SqlText;
import io.sluice.sql.TableColumn;
import io.sluice.sql.TableDdl;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The catalog kept as one JSON file per database, {@code <directory>/<database>.json}, in the
 * format docs/catalog.md describes ({@value #FORMAT}, version {@value #VERSION}). A file is
 * replaced whole and atomically: written to a temporary file, forced to disk, renamed over the
 * old one and the directory forced, so a crash leaves either the old or the new file, never a
 * torn one. Plain local files, not Hadoop's FileSystem: the catalog belongs to the coordinator's
 * own disk (its data directory), and a local rename is atomic where an object store's is not.
 *
 * <p>Loading refuses, naming the file, a file it cannot read or of a newer version, so a
 * coordinator never starts with half a catalog and later overwrites what it did not understand.
 */
public final class CatalogFiles implements CatalogStore {
    static final String FORMAT = "sluice-catalog";
    static final int VERSION = 1;
    private static final String SUFFIX = ".json";
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Path directory;

    public CatalogFiles(Path directory) {
        this.directory = requireNonNull(directory, "directory is null").toAbsolutePath();
    }

    public Path directory() {
        return directory;
    }

    @Override
    public List<DatabaseState> load() {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        List<DatabaseState> states = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*" + SUFFIX)) {
            for (Path file : files) {
                states.add(read(file));
            }
        } catch (IOException e) {
            throw new SluiceException("cannot read the catalog directory " + directory + ": " + e.getMessage(), e);
        }
        states.sort(java.util.Comparator.comparing(s -> s.database().name()));
        return states;
    }

    @Override
    public void save(DatabaseState state) {
        Path file = file(state.database().name());
        Path temp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Files.createDirectories(directory);
            byte[] bytes = MAPPER.writeValueAsBytes(toJson(state));
            try (FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    out.write(buffer);
                }
                out.force(true);
            }
            try {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException("the file system of " + directory + " cannot rename atomically", e);
            }
            forceDirectory();
        } catch (IOException e) {
            throw new SluiceException("cannot save the catalog of database '" + state.database().name() + "' to " + file
                    + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void delete(String database) {
        Path file = file(database);
        try {
            Files.deleteIfExists(file);
            forceDirectory();
        } catch (IOException e) {
            throw new SluiceException("cannot delete the catalog file " + file + ": " + e.getMessage(), e);
        }
    }

    private Path file(String database) {
        return directory.resolve(CatalogDatabase.checkName(database) + SUFFIX);
    }

    /** Makes the rename itself durable (a directory's entries are its data). */
    private void forceDirectory() throws IOException {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException e) {
            if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("win")) {
                throw e;
            }
        }
    }

    static ObjectNode toJson(DatabaseState state) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("format", FORMAT);
        root.put("version", VERSION);
        ObjectNode database = root.putObject("database");
        database.put("name", state.database().name());
        database.put("location", state.database().location());
        database.put("comment", state.database().comment());
        ArrayNode tables = root.putArray("tables");
        for (CatalogTable t : state.tables()) {
            ObjectNode table = tables.addObject();
            table.put("name", t.name());
            table.put("type", t.external() ? "EXTERNAL" : "MANAGED");
            table.put("provider", t.format().name().toLowerCase(Locale.ROOT));
            table.put("location", t.location());
            ArrayNode columns = table.putArray("columns");
            for (TableColumn c : t.columns()) {
                ObjectNode column = columns.addObject();
                column.put("name", c.name());
                column.put("type", SqlText.type(c.type()));
                column.put("nullable", !c.notNull());
                column.put("comment", c.comment());
            }
            t.partitionedBy().forEach(table.putArray("partitionedBy")::add);
            putMap(table.putObject("options"), t.options());
            table.put("comment", t.comment());
            putMap(table.putObject("properties"), t.properties());
        }
        ArrayNode views = root.putArray("views");
        for (CatalogView v : state.views()) {
            ObjectNode view = views.addObject();
            view.put("name", v.name());
            view.put("sql", v.sql());
            v.columns().forEach(view.putArray("columns")::add);
            view.put("comment", v.comment());
            view.put("dialect", v.dialect().name().toLowerCase(Locale.ROOT));
        }
        return root;
    }

    private static DatabaseState read(Path file) {
        try {
            JsonNode root = MAPPER.readTree(file.toFile());
            if (root == null || !FORMAT.equals(root.path("format").asText())) {
                throw new SluiceException("not a catalog file (\"format\" is not \"" + FORMAT + "\")");
            }
            int version = root.path("version").asInt(-1);
            if (version != VERSION) {
                throw new SluiceException("catalog format version " + version + " is not one this Sluice reads ("
                        + VERSION + ")");
            }
            JsonNode db = root.path("database");
            CatalogDatabase database = new CatalogDatabase(text(db, "name"), optional(db, "location"), optional(db, "comment"));
            String expected = database.name() + SUFFIX;
            if (!file.getFileName().toString().equals(expected)) {
                throw new SluiceException("it holds database '" + database.name() + "', which belongs in " + expected);
            }
            List<CatalogTable> tables = new ArrayList<>();
            for (JsonNode t : root.path("tables")) {
                List<TableColumn> columns = new ArrayList<>();
                for (JsonNode c : t.path("columns")) {
                    columns.add(new TableColumn(text(c, "name"), TableDdl.type(text(c, "type")),
                            !c.path("nullable").asBoolean(true), optional(c, "comment")));
                }
                List<String> partitionedBy = new ArrayList<>();
                t.path("partitionedBy").forEach(p -> partitionedBy.add(p.asText()));
                String type = text(t, "type");
                if (!type.equals("MANAGED") && !type.equals("EXTERNAL")) {
                    throw new SluiceException("table '" + text(t, "name") + "' has type '" + type
                            + "' (expected MANAGED or EXTERNAL)");
                }
                tables.add(new CatalogTable(database.name(), text(t, "name"), columns, FileFormat.parse(text(t, "provider")),
                        map(t.path("options")), partitionedBy, text(t, "location"), type.equals("EXTERNAL"),
                        optional(t, "comment"), map(t.path("properties"))));
            }
            List<CatalogView> views = new ArrayList<>();
            for (JsonNode v : root.path("views")) {
                List<String> columns = new ArrayList<>();
                v.path("columns").forEach(c -> columns.add(c.asText()));
                views.add(new CatalogView(database.name(), text(v, "name"), text(v, "sql"), columns, optional(v, "comment"),
                        dialect(v)));
            }
            return new DatabaseState(database, tables, views);
        } catch (IOException | RuntimeException e) {
            throw new SluiceException("cannot load the catalog file " + file + ": " + e.getMessage(), e);
        }
    }

    /** The dialect a view was created in; a file written before views kept it holds Spark's (then the only one). */
    private static SqlDialect dialect(JsonNode view) {
        String name = optional(view, "dialect");
        if (name == null) {
            return SqlDialect.SPARK;
        }
        try {
            return SqlDialect.valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new SluiceException("view '" + text(view, "name") + "' has dialect '" + name + "' (expected spark or ansi)");
        }
    }

    private static void putMap(ObjectNode node, Map<String, String> values) {
        values.forEach(node::put);
    }

    private static Map<String, String> map(JsonNode node) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            throw new SluiceException("\"" + field + "\" is missing or not text");
        }
        return value.asText();
    }

    private static String optional(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }
}
