package io.sluice.connect;

import static java.util.Objects.requireNonNull;

import io.sluice.api.Column;
import io.sluice.api.FrontEnds;
import io.sluice.api.Functions;
import io.sluice.common.SluiceException;
import io.sluice.common.types.ArithmeticMode;
import io.sluice.common.types.BinaryOp;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Case;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.InList;
import io.sluice.logical.expr.Like;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.Unary;
import io.sluice.logical.function.CallContext;
import io.sluice.logical.function.FunctionLibrary;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Spark's functions by the names its clients send ({@code UnresolvedFunction}): the operators a
 * Column method becomes ({@code ==}, {@code and}, {@code isNull}, {@code when}, {@code in}, ...)
 * here, every other name through the function library SQL and the DataFrame API share, which
 * refuses an unknown name with the closest known one.
 */
final class SparkFunctions {
    private final FunctionLibrary library;
    private final ClientCode userFunctions;

    SparkFunctions(FunctionLibrary library, ClientCode userFunctions) {
        this.library = requireNonNull(library, "library is null");
        this.userFunctions = requireNonNull(userFunctions, "userFunctions is null");
    }

    Expr call(String sparkName, List<Expr> args, boolean distinct) {
        String name = sparkName.toLowerCase(Locale.ROOT);
        if (distinct) {
            return distinctAggregate(sparkName, args);
        }
        BinaryOp op = binary(name);
        if (op != null && args.size() == 2) {
            return new Binary(op, args.get(0), args.get(1), op.kind() == BinaryOp.Kind.ARITHMETIC ? mode() : ArithmeticMode.STRICT);
        }
        return switch (name) {
            case "!=" -> new Unary(Unary.Op.NOT, new Binary(BinaryOp.EQ, args.get(0), args.get(1)));
            case "!", "not" -> new Unary(Unary.Op.NOT, one(sparkName, args));
            case "negative", "-" -> new Unary(Unary.Op.NEGATE, one(sparkName, args), mode());
            case "isnull" -> new Unary(Unary.Op.IS_NULL, one(sparkName, args));
            case "isnotnull" -> new Unary(Unary.Op.IS_NOT_NULL, one(sparkName, args));
            case "when" -> when(args);
            case "in" -> in(args);
            case "like", "ilike" -> like(sparkName, args, name.equals("ilike"));
            case "contains" -> column(args, "contains").contains(FrontEnds.column(args.get(1))).expr();
            case "endswith" -> column(args, "endsWith").endsWith(FrontEnds.column(args.get(1))).expr();
            case "count" -> count(args);
            case "explode", "explode_outer", "posexplode", "posexplode_outer", "inline", "inline_outer" -> generator(name, args);
            default -> {
                Expr registered = userFunctions.call(sparkName, args);
                yield registered != null ? registered : library.call(sparkName, args);
            }
        };
    }

    /** A generator in a select list, as the DataFrame API's {@code Functions.explode} and its kin make it. */
    private static Expr generator(String name, List<Expr> args) {
        Column c = FrontEnds.column(one(name, args));
        Column call = switch (name) {
            case "explode" -> Functions.explode(c);
            case "explode_outer" -> Functions.explodeOuter(c);
            case "posexplode" -> Functions.posexplode(c);
            case "posexplode_outer" -> Functions.posexplodeOuter(c);
            case "inline" -> Functions.inline(c);
            default -> Functions.inlineOuter(c);
        };
        return call.expr();
    }

    /** The session's arithmetic mode (Spark's ANSI mode or not), which Column arithmetic and casts follow. */
    ArithmeticMode mode() {
        return library.context().mode();
    }

    /** The session's time zone, query start and arithmetic mode, which expression strings are planned with too. */
    CallContext context() {
        return library.context();
    }

    private static BinaryOp binary(String name) {
        return switch (name) {
            case "+" -> BinaryOp.ADD;
            case "-" -> BinaryOp.SUBTRACT;
            case "*" -> BinaryOp.MULTIPLY;
            case "/" -> BinaryOp.DIVIDE;
            case "%" -> BinaryOp.MODULO;
            case "==", "=" -> BinaryOp.EQ;
            case "<" -> BinaryOp.LT;
            case "<=" -> BinaryOp.LT_EQ;
            case ">" -> BinaryOp.GT;
            case ">=" -> BinaryOp.GT_EQ;
            case "and" -> BinaryOp.AND;
            case "or" -> BinaryOp.OR;
            default -> null;
        };
    }

    /** The first of two arguments as a Column of the DataFrame API, whose methods a Column method of Spark's becomes. */
    private static Column column(List<Expr> args, String name) {
        if (args.size() != 2) {
            throw new SluiceException(name + " takes a column and a string, not " + args.size() + " arguments");
        }
        return FrontEnds.column(args.get(0));
    }

    private static Expr one(String name, List<Expr> args) {
        if (args.size() != 1) {
            throw new SluiceException(name + " takes one argument, not " + args.size());
        }
        return args.get(0);
    }

    /** {@code when(c1, v1, c2, v2, ..., [else])}: Spark sends CaseWhen as one function of pairs. */
    private static Expr when(List<Expr> args) {
        List<Expr> conditions = new ArrayList<>();
        List<Expr> results = new ArrayList<>();
        for (int i = 0; i + 1 < args.size(); i += 2) {
            conditions.add(args.get(i));
            results.add(args.get(i + 1));
        }
        Expr otherwise = args.size() % 2 == 1 ? args.get(args.size() - 1) : Literal.nullValue();
        return new Case(conditions, results, otherwise);
    }

    private static Expr in(List<Expr> args) {
        if (args.size() < 2) {
            throw new SluiceException("isin needs at least one value");
        }
        return InList.of(args.get(0), args.subList(1, args.size()), false);
    }

    private static Expr like(String name, List<Expr> args, boolean caseInsensitive) {
        if (args.size() != 2 || !(args.get(1) instanceof Literal pattern) || !(pattern.value() instanceof String text)) {
            throw new SluiceException(name + " takes a column and a constant pattern");
        }
        return new Like(args.get(0), text, false, caseInsensitive);
    }

    /** {@code countDistinct(a, ...)} and {@code sum_distinct(a)}: the DataFrame API's, resolved as SQL's DISTINCT aggregates. */
    private static Expr distinctAggregate(String name, List<Expr> args) {
        Column[] columns = args.stream().map(FrontEnds::column).toArray(Column[]::new);
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "count" -> {
                if (columns.length == 0) {
                    throw new SluiceException("count(DISTINCT) needs at least one column");
                }
                yield Functions.countDistinct(columns[0], Arrays.copyOfRange(columns, 1, columns.length)).expr();
            }
            case "sum" -> Functions.sumDistinct(FrontEnds.column(one(name, args))).expr();
            default -> throw new SluiceException("DISTINCT is not supported in " + name + "(...) over Spark Connect");
        };
    }

    private static Expr count(List<Expr> args) {
        if (args.isEmpty() || args.get(0) instanceof Literal) {
            return Functions.countStar().expr();
        }
        return Functions.count(FrontEnds.column(one("count", args))).expr();
    }

}
