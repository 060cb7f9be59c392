package io.sluice.sql;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Schema;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.sink.SaveMode;
import io.sluice.logical.sink.WriteTarget;
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.FormatOptions;
import io.sluice.logical.source.TableSource;
import java.util.List;
import java.util.Map;

/** One parsed SQL statement; the caller switches over the permitted kinds. */
public sealed interface Statement permits Statement.CreateExternalTable, Statement.Query, Statement.Explain,
        Statement.SetOption, Statement.CreateView, Statement.DropView, Statement.CreateTableAs, Statement.Insert,
        Statement.AnalyzeTable, Statement.ShowSetting {

    /**
     * {@code CREATE TABLE [IF NOT EXISTS] name STORED AS format LOCATION 'dir' AS query}: write the
     * query's result to a new directory and register it as a table.
     */
    record CreateTableAs(String name, WriteTarget target, LogicalPlan plan, boolean ifNotExists) implements Statement {
        public CreateTableAs {
            requireNonNull(name, "name is null");
            requireNonNull(target, "target is null");
            requireNonNull(plan, "plan is null");
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
     * query planned now, against the tables of this moment.
     */
    record CreateView(String name, LogicalPlan plan, boolean replace) implements Statement {
        public CreateView {
            requireNonNull(name, "name is null");
            requireNonNull(plan, "plan is null");
        }
    }

    /** {@code DROP VIEW [IF EXISTS] name}. */
    record DropView(String name, boolean ifExists) implements Statement {
        public DropView {
            requireNonNull(name, "name is null");
        }
    }

    /**
     * {@code CREATE EXTERNAL TABLE name [(columns)] STORED AS format [OPTIONS (…)] LOCATION 'location'}:
     * {@code columns} is null when the schema is to be read from the files.
     */
    record CreateExternalTable(String name, FileFormat format, String location, Map<String, String> options,
            Schema columns, List<String> partitionedBy) implements Statement {
        public CreateExternalTable {
            requireNonNull(name, "name is null");
            requireNonNull(format, "format is null");
            requireNonNull(location, "location is null");
            options = FormatOptions.normalize(options);
            partitionedBy = List.copyOf(partitionedBy);
        }

        /** Partition columns, if any, as the {@code key=value} directories give them. */
        public CreateExternalTable(String name, FileFormat format, String location, Map<String, String> options,
                Schema columns) {
            this(name, format, location, options, columns, List.of());
        }

        public CreateExternalTable(String name, FileFormat format, String location) {
            this(name, format, location, Map.of(), null);
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
