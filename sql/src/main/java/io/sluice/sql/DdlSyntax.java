package io.sluice.sql;

import static java.util.Objects.requireNonNull;

import io.sluice.logical.source.FileFormat;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The syntax tree {@link DdlParser} builds: what a catalog statement says, before any name is
 * looked up. A statement holding a query ({@code AS query}, {@code INSERT}) keeps where the query
 * starts in the text ({@code queryStart}); the query itself is Calcite's to parse. Records print as
 * text, which is what the parser's tests compare.
 */
sealed interface DdlSyntax {
    /** {@code [database.]name}; {@code database} null when not given. */
    record Name(String database, String name) {
        public Name {
            requireNonNull(name, "name is null");
        }

        @Override
        public String toString() {
            return (database == null ? "" : SqlText.name(database) + ".") + SqlText.name(name);
        }
    }

    /**
     * {@code CREATE [EXTERNAL] TABLE}: {@code format} null when neither USING nor STORED AS was
     * given; {@code location} null when not given; {@code queryStart} -1 without {@code AS query}.
     */
    record CreateTable(Name name, boolean external, boolean ifNotExists, List<TableColumn> columns, FileFormat format,
            Map<String, String> options, List<String> partitionedBy, String location, String comment,
            Map<String, String> properties, int queryStart) implements DdlSyntax {
        public CreateTable {
            requireNonNull(name, "name is null");
            columns = List.copyOf(columns);
            options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
            partitionedBy = List.copyOf(partitionedBy);
            properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
        }
    }

    /** {@code CREATE [OR REPLACE] [TEMP|TEMPORARY] VIEW [IF NOT EXISTS] name [(columns)] [COMMENT '…'] AS query}. */
    record CreateView(Name name, boolean orReplace, boolean temporary, boolean ifNotExists, List<String> columns,
            String comment, int queryStart) implements DdlSyntax {
        public CreateView {
            requireNonNull(name, "name is null");
            columns = List.copyOf(columns);
        }
    }

    /** {@code DROP TABLE|VIEW [IF EXISTS] name}. */
    record Drop(boolean view, Name name, boolean ifExists) implements DdlSyntax {
        public Drop {
            requireNonNull(name, "name is null");
        }
    }

    /** {@code ALTER TABLE from RENAME TO to}. */
    record RenameTable(Name from, Name to) implements DdlSyntax {
        public RenameTable {
            requireNonNull(from, "from is null");
            requireNonNull(to, "to is null");
        }
    }

    /** {@code ALTER TABLE name ADD COLUMNS (column type, …)}. */
    record AddColumns(Name table, List<TableColumn> columns) implements DdlSyntax {
        public AddColumns {
            requireNonNull(table, "table is null");
            columns = List.copyOf(columns);
        }
    }

    /** {@code SHOW TABLES [IN|FROM database] [[LIKE] 'pattern']}; null parts were not given. */
    record ShowTables(String database, String pattern) implements DdlSyntax {
    }

    /** {@code SHOW DATABASES|SCHEMAS [[LIKE] 'pattern']}. */
    record ShowDatabases(String pattern) implements DdlSyntax {
    }

    /** {@code SHOW CREATE TABLE name}. */
    record ShowCreateTable(Name name) implements DdlSyntax {
        public ShowCreateTable {
            requireNonNull(name, "name is null");
        }
    }

    /** {@code DESCRIBE|DESC [TABLE] [EXTENDED|FORMATTED] name}. */
    record Describe(Name name, boolean extended) implements DdlSyntax {
        public Describe {
            requireNonNull(name, "name is null");
        }
    }

    /** {@code CREATE DATABASE|SCHEMA [IF NOT EXISTS] name [COMMENT '…'] [LOCATION '…']}. */
    record CreateDatabase(String name, boolean ifNotExists, String location, String comment) implements DdlSyntax {
        public CreateDatabase {
            requireNonNull(name, "name is null");
        }
    }

    /** {@code DROP DATABASE|SCHEMA [IF EXISTS] name [CASCADE|RESTRICT]}. */
    record DropDatabase(String name, boolean ifExists, boolean cascade) implements DdlSyntax {
        public DropDatabase {
            requireNonNull(name, "name is null");
        }
    }

    /** {@code USE [DATABASE|SCHEMA] name}. */
    record Use(String database) implements DdlSyntax {
        public Use {
            requireNonNull(database, "database is null");
        }
    }

    /**
     * {@code INSERT INTO|OVERWRITE [TABLE] name [PARTITION (k = 'v' | k, …)] [(columns)] query}:
     * {@code partition} maps each named partition column to its static value, or to null when its
     * values come from the query (dynamic), in the order written.
     */
    record Insert(Name table, boolean overwrite, Map<String, String> partition, List<String> columns, int queryStart)
            implements DdlSyntax {
        public Insert {
            requireNonNull(table, "table is null");
            partition = Collections.unmodifiableMap(new LinkedHashMap<>(partition));
            columns = List.copyOf(columns);
        }
    }
}
