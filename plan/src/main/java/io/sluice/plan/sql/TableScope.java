package io.sluice.plan.sql;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.SluiceException;
import io.sluice.plan.expr.Column;
import io.sluice.plan.source.TableSource;
import io.sluice.plan.types.Schema;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlIdentifier;

/**
 * The one table a query reads, under its name and optional alias. Resolves column references to
 * the schema's own spelling, so {@code K} and {@code t.k} both become the column {@code k} and
 * equal expressions compare equal.
 */
record TableScope(TableSource table, String alias) {
    TableScope {
        requireNonNull(table, "table is null");
    }

    Schema schema() {
        return table.schema();
    }

    /** Whether {@code name} is a column of the table (case-insensitively). */
    boolean hasColumn(String name) {
        return schema().indexOf(name) >= 0;
    }

    /** The column {@code id} names; throws naming the column and listing the available ones. */
    Column column(SqlIdentifier id) {
        if (id.names.size() == 1) {
            return new Column(schema().field(id.names.get(0)).name());
        }
        if (id.names.size() == 2) {
            checkQualifier(id.names.get(0), id.toString());
            return new Column(schema().field(id.names.get(1)).name());
        }
        throw SqlErrors.unsupported("compound column name '" + String.join(".", id.names) + "'");
    }

    /** All columns, for {@code *} and {@code t.*}. */
    List<Column> allColumns(SqlIdentifier star) {
        if (star.names.size() == 2) {
            checkQualifier(star.names.get(0), star.toString());
        } else if (star.names.size() > 2) {
            throw SqlErrors.unsupported("compound name '" + star + "'");
        }
        List<Column> out = new ArrayList<>();
        for (String name : schema().names()) {
            out.add(new Column(name));
        }
        return out;
    }

    /** A qualifier must name the table or its alias: with one table, anything else is a typo. */
    private void checkQualifier(String qualifier, String reference) {
        if (qualifier.equalsIgnoreCase(table.name()) || (alias != null && qualifier.equalsIgnoreCase(alias))) {
            return;
        }
        throw new SluiceException("unknown table or alias '" + qualifier + "' in '" + reference
                + "'; the query reads table '" + table.name() + "'" + (alias == null ? "" : " as '" + alias + "'"));
    }
}
