package io.sluice.sql;

import io.sluice.common.SluiceException;
import java.util.Map;
import java.util.TreeMap;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWindow;

/**
 * The {@code WINDOW w AS (...)} clause: replaces {@code OVER w} and {@code OVER (w ORDER BY ...)} in
 * the select list, QUALIFY and ORDER BY by the window written out, in the parse tree, before
 * translation. A reference takes the named window's PARTITION BY, its ORDER BY unless it has its
 * own, and its frame unless it has its own (as in PostgreSQL and DuckDB).
 */
final class NamedWindows {
    private final Map<String, SqlWindow> named = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

    private NamedWindows() {
    }

    static void resolve(SqlSelect select, SqlNodeList orderList) {
        SqlNodeList list = select.getWindowList();
        if (list == null || list.isEmpty()) {
            return;
        }
        NamedWindows windows = new NamedWindows();
        for (SqlNode node : list) {
            SqlWindow w = (SqlWindow) node;
            String name = w.getDeclName().getSimple();
            if (windows.named.containsKey(name)) {
                throw new SluiceException("window '" + name + "' is defined twice");
            }
            windows.named.put(name, windows.expand(w));
        }
        windows.walk(select.getSelectList());
        windows.walk(select.getQualify());
        windows.walk(orderList);
    }

    private void walk(SqlNode node) {
        if (node instanceof SqlNodeList list) {
            list.forEach(this::walk);
        } else if (node instanceof SqlCall call) {
            if (call.getKind() == SqlKind.OVER) {
                SqlNode spec = call.operand(1);
                if (spec instanceof SqlIdentifier id) {
                    call.setOperand(1, lookup(id));
                } else if (spec instanceof SqlWindow w && w.getRefName() != null) {
                    call.setOperand(1, expand(w));
                }
            }
            for (SqlNode operand : call.getOperandList()) {
                if (operand != null) {
                    walk(operand);
                }
            }
        }
    }

    private SqlWindow lookup(SqlIdentifier id) {
        SqlWindow w = named.get(id.getSimple());
        if (w == null) {
            throw SqlErrors.at(id.getParserPosition(), new SluiceException("unknown window '" + id.getSimple()
                    + "'; windows defined: " + String.join(", ", named.keySet())));
        }
        return w;
    }

    /** {@code w} with its reference to a named window written out. */
    private SqlWindow expand(SqlWindow w) {
        if (w.getRefName() == null) {
            return w;
        }
        SqlWindow base = lookup(w.getRefName());
        if (!w.getPartitionList().isEmpty()) {
            throw new SluiceException("a window that refers to '" + w.getRefName() + "' cannot have its own PARTITION BY");
        }
        boolean ownFrame = w.getLowerBound() != null;
        SqlNodeList order = w.getOrderList().isEmpty() ? base.getOrderList() : w.getOrderList();
        SqlWindow frame = ownFrame ? w : base;
        return SqlWindow.create(null, null, base.getPartitionList(), order,
                SqlLiteral.createBoolean(frame.isRows(), w.getParserPosition()), frame.getLowerBound(),
                frame.getUpperBound(), null, w.getParserPosition());
    }
}
