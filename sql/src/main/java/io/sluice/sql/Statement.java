package io.sluice.sql;

import static java.util.Objects.requireNonNull;

import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.sink.SaveMode;
import io.sluice.logical.source.TableSource;
import java.util.List;

/** One parsed SQL statement; the caller switches over the permitted kinds. */
public sealed interface Statement permits Statement.CreateTable, Statement.DropTable, Statement.RenameTable,
        Statement.AddColumns, Statement.CreateDatabase, Statement.DropDatabase, Statement.UseDatabase, Statement.Query,
        Statement.Explain, Statement.SetOption, Statement.CreateView, Statement.DropView, Statement.Insert,
        Statement.AnalyzeTable, Statement.ShowSetting {

    /**
     * {@code CREATE [EXTERNAL] TABLE … [AS query]}: {@code table}'s location is null for a managed
     * table (the warehouse chooses it) and its columns empty for an external table whose schema is
     * to be read from its files; {@code query} is null without {@code AS}.
     */
    record CreateTable(CatalogTable table, boolean ifNotExists, LogicalPlan query) implements Statement {
        public CreateTable {
            requireNonNull(table, "table is null");
        }
    }

    /** {@code DROP TABLE [IF EXISTS] name}. */
    record DropTable(String name, boolean ifExists) implements Statement {
        public DropTable {
            requireNonNull(name, "name is null");
        }
    }

    /** {@code ALTER TABLE t RENAME TO [database.]name}. */
    record RenameTable(CatalogTable table, String database, String name) implements Statement {
        public RenameTable {
            requireNonNull(table, "table is null");
            requireNonNull(database, "database is null");
            requireNonNull(name, "name is null");
        }
    }

    /** {@code ALTER TABLE t ADD COLUMNS (…)}: the columns are new to the table (checked when parsed). */
    record AddColumns(CatalogTable table, List<TableColumn> columns) implements Statement {
        public AddColumns {
            requireNonNull(table, "table is null");
            columns = List.copyOf(columns);
        }
    }

    /** {@code CREATE DATABASE|SCHEMA}: {@code database}'s location null means under the warehouse. */
    record CreateDatabase(CatalogDatabase database, boolean ifNotExists) implements Statement {
        public CreateDatabase {
            requireNonNull(database, "database is null");
        }
    }

    /** {@code DROP DATABASE|SCHEMA [IF EXISTS] name [CASCADE]}. */
    record DropDatabase(String name, boolean ifExists, boolean cascade) implements Statement {
        public DropDatabase {
            requireNonNull(name, "name is null");
        }
    }

    /** {@code USE database}. */
    record UseDatabase(String name) implements Statement {
        public UseDatabase {
            requireNonNull(name, "name is null");
        }
    }

    /**
     * {@code INSERT INTO|OVERWRITE name query}: write the query's result (already fitted to the
     * table's columns) into the table's directory, appending or replacing.
     */
    record Insert(TableSource table, LogicalPlan plan, SaveMode mode) implements Statement {
        public Insert {
            requireNonNull(table, "table is null");
            requireNonNull(plan, "plan is null");
            requireNonNull(mode, "mode is null");
        }
    }

    /**
     * {@code ANALYZE TABLE name COMPUTE STATISTICS [FOR COLUMNS c, … | FOR ALL COLUMNS]}: count the
     * table's rows and, for the named columns (resolved to the table's own names), their distinct
     * values, NULLs, min and max.
     */
    record AnalyzeTable(TableSource table, List<String> columns) implements Statement {
        public AnalyzeTable {
            requireNonNull(table, "table is null");
            columns = List.copyOf(columns);
        }
    }

    /**
     * {@code CREATE [OR REPLACE] [TEMP|TEMPORARY] VIEW name [(columns)] AS query}: {@code plan} is the
     * query planned now, against the tables of this moment; {@code stored} is the view as the
     * catalog keeps it (its text, planned again when read), null for a temporary view.
     */
    record CreateView(String name, LogicalPlan plan, boolean replace, CatalogView stored, boolean ifNotExists)
            implements Statement {
        public CreateView {
            requireNonNull(name, "name is null");
            requireNonNull(plan, "plan is null");
        }

        /** A temporary view. */
        public CreateView(String name, LogicalPlan plan, boolean replace) {
            this(name, plan, replace, null, false);
        }
    }

    /** {@code DROP VIEW [IF EXISTS] name}. */
    record DropView(String name, boolean ifExists) implements Statement {
        public DropView {
            requireNonNull(name, "name is null");
        }
    }

    /** A query to run. */
    record Query(LogicalPlan plan) implements Statement {
        public Query {
            requireNonNull(plan, "plan is null");
        }
    }

    /** {@code SET name = value}: a setting for the rest of the script. */
    record SetOption(String name, String value) implements Statement {
        public SetOption {
            requireNonNull(name, "name is null");
            requireNonNull(value, "value is null");
        }
    }

    /** {@code SET spark.key}: show the Spark key's value, as Spark's {@code SET key} does. */
    record ShowSetting(String name) implements Statement {
        public ShowSetting {
            requireNonNull(name, "name is null");
        }
    }

    /**
     * {@code EXPLAIN [VERBOSE] query}: show the plan instead of running it; {@code EXPLAIN ANALYZE
     * query}: run it and show the staged plan with what each operator did.
     */
    record Explain(LogicalPlan plan, boolean verbose, boolean analyze) implements Statement {
        public Explain {
            requireNonNull(plan, "plan is null");
        }

        public Explain(LogicalPlan plan, boolean verbose) {
            this(plan, verbose, false);
        }
    }
}
