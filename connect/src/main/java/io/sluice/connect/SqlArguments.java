package io.sluice.connect;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.connect.proto.Expression;
import io.sluice.connect.proto.SQL;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code spark.sql(text, args)}: the arguments (constants) bound into the text as SQL literals,
 * positional ones for {@code ?}, named ones for {@code :name}, outside quotes and comments only.
 */
final class SqlArguments {
    private SqlArguments() {
    }

    static String bind(SQL sql, Function<Expression, Expr> translate) {
        List<Expr> positional = new ArrayList<>();
        sql.getPosArgsList().forEach(l -> positional.add(ExpressionTranslator.literal(l)));
        sql.getPosArgumentsList().forEach(e -> positional.add(translate.apply(e)));
        Map<String, Expr> named = new LinkedHashMap<>();
        sql.getArgsMap().forEach((k, l) -> named.put(k, ExpressionTranslator.literal(l)));
        sql.getNamedArgumentsMap().forEach((k, e) -> named.put(k, translate.apply(e)));
        if (positional.isEmpty() && named.isEmpty()) {
            return sql.getQuery();
        }
        return bind(sql.getQuery(), positional, named);
    }

    static String bind(String text, List<Expr> positional, Map<String, Expr> named) {
        StringBuilder out = new StringBuilder();
        int next = 0;
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                int end = text.indexOf(c, i + 1);
                end = end < 0 ? text.length() : end + 1;
                out.append(text, i, end);
                i = end;
            } else if (c == '-' && text.startsWith("--", i)) {
                int end = text.indexOf('\n', i);
                end = end < 0 ? text.length() : end;
                out.append(text, i, end);
                i = end;
            } else if (c == '?') {
                if (next >= positional.size()) {
                    throw new SluiceException("the SQL text has more ? than the " + positional.size() + " arguments given");
                }
                out.append(sqlText(positional.get(next++)));
                i++;
            } else if (c == ':' && i + 1 < text.length() && Character.isJavaIdentifierStart(text.charAt(i + 1))
                    && (i == 0 || text.charAt(i - 1) != ':')) {
                int end = i + 1;
                while (end < text.length() && Character.isJavaIdentifierPart(text.charAt(end))) {
                    end++;
                }
                String name = text.substring(i + 1, end);
                Expr value = named.get(name);
                if (value == null) {
                    throw new SluiceException("no argument named '" + name + "' for :" + name + " in the SQL text");
                }
                out.append(sqlText(value));
                i = end;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    private static String sqlText(Expr e) {
        if (!(e instanceof Literal l)) {
            throw new SluiceException("a SQL argument must be a constant, not " + e);
        }
        Object v = l.value();
        if (v == null) {
            return "NULL";
        }
        DataType type = l.type();
        return switch (type.kind()) {
            case UTF8 -> "'" + ((String) v).replace("'", "''") + "'";
            case DATE32 -> "DATE '" + LocalDate.ofEpochDay((Long) v) + "'";
            case DECIMAL -> new BigDecimal(v instanceof Long n ? BigInteger.valueOf(n) : (BigInteger) v, type.scale()).toPlainString();
            case BOOL, INT32, INT64 -> v.toString();
            case FLOAT64 -> "CAST(" + v + " AS DOUBLE)";
            default -> throw new SluiceException("a SQL argument of type " + type.sqlName() + " is not supported");
        };
    }
}
