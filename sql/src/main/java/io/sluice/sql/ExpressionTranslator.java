package io.sluice.sql;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.ArithmeticMode;
import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.TemporalValues;
import io.sluice.logical.expr.AddInterval;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Case;
import io.sluice.logical.expr.Cast;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.Extract;
import io.sluice.logical.expr.GroupingCall;
import io.sluice.logical.expr.ImplicitCasts;
import io.sluice.logical.expr.InList;
import io.sluice.logical.expr.Lambda;
import io.sluice.logical.expr.LambdaVariable;
import io.sluice.logical.expr.Like;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.OuterColumn;
import io.sluice.logical.expr.RegexMatch;
import io.sluice.logical.expr.ScalarFunction;
import io.sluice.logical.expr.Unary;
import io.sluice.logical.expr.WindowFunction;
import io.sluice.logical.function.FunctionLibrary;
import io.sluice.logical.plan.Exists;
import io.sluice.logical.plan.InSubquery;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.QuantifiedComparison;
import io.sluice.logical.plan.ScalarSubquery;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLambda;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlSelectKeyword;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.SqlTypeNameSpec;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.fun.SqlBetweenOperator;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlLikeOperator;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Turns one Calcite expression tree into a Sluice {@link Expr} over the FROM clause's columns. Sugar is
 * removed here (BETWEEN), so the rest of the engine sees only the core operators (an IN list is one,
 * {@link InList}). Types
 * are not checked here: the logical plan nodes check them when built, with better context.
 *
 * <p>Long on purpose: it is one dispatch over Calcite's operator kinds, and each case is a few lines
 * that only make sense next to the dispatch; spreading them over classes would scatter the mapping
 * from SQL syntax to {@link Expr} that a reader wants to see in one place.
 */
final class ExpressionTranslator {
    /** Plans a subquery found in an expression; its translator sees this FROM scope as the enclosing one. */
    @FunctionalInterface
    interface SubqueryPlanner {
        LogicalPlan plan(SqlNode query);
    }

    private final TableScope scope;
    private final Map<String, Expr> aliases;
    private final List<TableScope> outer; // enclosing queries' scopes, nearest first
    private final SubqueryPlanner subqueries;
    private final FunctionLibrary library; // the session's time zone and arithmetic mode
    private final ArithmeticMode mode;
    private final Deque<List<String>> lambdaParameters = new ArrayDeque<>(); // of the lambdas being translated, innermost first

    /** Translates against the FROM columns only. */
    ExpressionTranslator(TableScope scope) {
        this(scope, Map.of());
    }

    /**
     * Translates against the table's columns, falling back to select-list aliases (which map to the
     * aliased expressions) for names that are not columns; GROUP BY, HAVING and ORDER BY use this.
     */
    ExpressionTranslator(TableScope scope, Map<String, Expr> aliases) {
        this(scope, aliases, List.of(), null);
    }

    /**
     * As above, within a subquery whose enclosing queries read {@code outer} (nearest first, empty at
     * the top level): a column that is neither here nor a select alias but is in one of them (the
     * nearest) becomes an {@link OuterColumn}.
     * {@code subqueries} plans nested subqueries (null: they are rejected as unsupported).
     */
    ExpressionTranslator(TableScope scope, Map<String, Expr> aliases, List<TableScope> outer, SubqueryPlanner subqueries) {
        this.outer = List.copyOf(outer);
        this.subqueries = subqueries;
        this.scope = requireNonNull(scope, "scope is null");
        this.library = PlanningContext.library();
        this.mode = library.context().mode();
        TreeMap<String, Expr> map = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        aliases.forEach(map::putIfAbsent);
        this.aliases = map;
    }

    /**
     * The expression {@code node} denotes, with the implicit conversions of {@link ImplicitCasts}
     * applied over this scope's columns.
     */
    Expr translate(SqlNode node) {
        return ImplicitCasts.apply(expr(node), scope.schema());
    }

    private Expr expr(SqlNode node) {
        if (node instanceof SqlLambda lambda) {
            return lambda(lambda);
        }
        if (node instanceof SqlIdentifier id) {
            return identifier(id);
        }
        if (node instanceof SqlLiteral literal) {
            return literal(literal);
        }
        if (node instanceof SqlCall call) {
            return call(call);
        }
        if (node instanceof SqlNodeList) {
            throw SqlErrors.unsupported("row value " + node);
        }
        if (node instanceof SqlIntervalQualifier unit && scope.hasColumn(unit.toString())) {
            return scope.unqualified(unit.toString()); // date_trunc('month', day): Calcite reads day as a unit
        }
        throw SqlErrors.unsupported("expression " + node);
    }

    /** A lambda function: its parameters are variables in its body, hiding columns of the same names, as in Spark. */
    private Expr lambda(SqlLambda lambda) {
        List<String> parameters = new ArrayList<>();
        lambda.getParameters().forEach(p -> parameters.add(((SqlIdentifier) p).getSimple()));
        lambdaParameters.push(parameters);
        try {
            return new Lambda(parameters, expr(lambda.getExpression()));
        } finally {
            lambdaParameters.pop();
        }
    }

    private boolean isLambdaVariable(String name) {
        return lambdaParameters.stream().anyMatch(ps -> ps.stream().anyMatch(name::equalsIgnoreCase));
    }

    private Expr identifier(SqlIdentifier id) {
        if (id.isStar()) {
            throw SqlErrors.unsupported("'" + id + "' outside the select list or count(*)");
        }
        if (isLambdaVariable(id.names.get(0))) {
            Expr variable = new LambdaVariable(id.names.get(0));
            return id.names.size() == 1 ? variable : NestedPaths.fields(variable, id.names.subList(1, id.names.size()));
        }
        if (id.isSimple() && !scope.hasColumn(id.getSimple())) {
            Expr aliased = aliases.get(id.getSimple());
            if (aliased != null) {
                return aliased;
            }
            if (id.getSimple().equalsIgnoreCase("current_date") && outer.stream().noneMatch(o -> o.canResolve(id))) {
                return currentDate();
            }
        }
        if (!scope.canResolveStrictly(id)) {
            for (TableScope enclosing : outer) {
                if (enclosing.canResolveStrictly(id) || (!scope.canResolve(id) && enclosing.canResolve(id))) {
                    Expr e = enclosing.column(id);
                    if (!(e instanceof Column c)) {
                        throw SqlErrors.unsupported("correlated reference to the merged USING column '" + id + "'");
                    }
                    return new OuterColumn(c.column(), enclosing.schema().field(c.column()).type(), enclosing.id());
                }
            }
        }
        if (id.names.size() > 1 && !scope.canResolve(id)) {
            // s.f, t.s.f: the longest prefix that is a column, then fields of its struct
            for (int k = id.names.size() - 1; k >= 1; k--) {
                SqlIdentifier prefix = id.getComponent(0, k);
                if (scope.canResolve(prefix)) {
                    return NestedPaths.fields(scope.column(prefix), id.names.subList(k, id.names.size()));
                }
            }
        }
        try {
            return scope.column(id);
        } catch (SluiceException e) {
            throw SqlErrors.at(id.getParserPosition(), e);
        }
    }

    private static Expr literal(SqlLiteral literal) {
        if (literal instanceof SqlNumericLiteral number) {
            return number(number);
        }
        if (literal instanceof SqlCharStringLiteral) {
            return Literal.of(literal.getValueAs(String.class));
        }
        if (literal instanceof SqlUnknownLiteral typed) {
            return typedLiteral(typed);
        }
        SqlTypeName type = literal.getTypeName();
        if (type == SqlTypeName.NULL) {
            return Literal.nullValue();
        }
        if (type == SqlTypeName.BOOLEAN) {
            return Literal.of(literal.booleanValue());
        }
        if (type == SqlTypeName.DATE) {
            return date(literal.toValue());
        }
        if (type == SqlTypeName.TIMESTAMP) {
            return timestamp(literal.toValue());
        }
        if (literal instanceof SqlIntervalLiteral) {
            throw SqlErrors.unsupported("INTERVAL outside date + interval and date - interval: " + literal);
        }
        throw SqlErrors.unsupported(type + " literal " + literal);
    }

    /** Exact numbers without a point are BIGINT (DECIMAL(p, 0) past a long), with one DECIMAL; 1e3 and friends are DOUBLE. */
    private static Expr number(SqlNumericLiteral number) {
        BigDecimal value = number.getValueAs(BigDecimal.class);
        if (!number.isExact()) {
            return Literal.of(value.doubleValue());
        }
        try {
            if (value.scale() <= 0 && value.toBigInteger().bitLength() < 64) {
                return Literal.of(value.longValueExact());
            }
            return Literal.ofDecimal(value); // past a long: DECIMAL(p, 0), as Spark types it

        } catch (ArithmeticException | SluiceException e) {
            throw new SluiceException("numeric literal " + value.toPlainString() + " is out of range", e);
        }
    }

    /** Calcite leaves {@code DATE '...'} untyped until validation, which we skip. */
    private static Expr typedLiteral(SqlUnknownLiteral typed) {
        if (typed.tag.equalsIgnoreCase("DATE")) {
            return date(typed.getValue());
        }
        if (typed.tag.equalsIgnoreCase("TIMESTAMP")) {
            return timestamp(typed.getValue());
        }
        throw SqlErrors.unsupported(typed.tag + " literal");
    }

    private static Expr timestamp(String text) {
        try {
            return Literal.ofTimestamp(TemporalValues.parseTimestamp(text));
        } catch (DateTimeParseException | ArithmeticException e) {
            throw new SluiceException("invalid TIMESTAMP literal '" + text + "'; expected yyyy-mm-dd hh:mm:ss[.ffffff]", e);
        }
    }

    private static Expr date(String text) {
        try {
            return Literal.ofDate(LocalDate.parse(text.trim()));
        } catch (DateTimeParseException e) {
            throw new SluiceException("invalid DATE literal '" + text + "'; expected yyyy-mm-dd", e);
        }
    }

    private Expr call(SqlCall call) {
        SqlKind kind = call.getKind();
        return switch (kind) {
            case AND -> fold(BinaryOp.AND, call);
            case OR -> fold(BinaryOp.OR, call);
            case EQUALS -> binary(BinaryOp.EQ, call);
            case NOT_EQUALS -> binary(BinaryOp.NOT_EQ, call);
            case LESS_THAN -> binary(BinaryOp.LT, call);
            case LESS_THAN_OR_EQUAL -> binary(BinaryOp.LT_EQ, call);
            case GREATER_THAN -> binary(BinaryOp.GT, call);
            case GREATER_THAN_OR_EQUAL -> binary(BinaryOp.GT_EQ, call);
            case PLUS -> plusOrMinus(call, 1);
            case MINUS -> plusOrMinus(call, -1);
            case TIMES -> binary(BinaryOp.MULTIPLY, call);
            case DIVIDE -> binary(BinaryOp.DIVIDE, call);
            case MOD -> binary(BinaryOp.MODULO, call);
            case NOT -> not(operand(call, 0));
            case MINUS_PREFIX -> new Unary(Unary.Op.NEGATE, operand(call, 0), mode);
            case PLUS_PREFIX -> operand(call, 0);
            case IS_NULL -> new Unary(Unary.Op.IS_NULL, operand(call, 0));
            case IS_NOT_NULL -> new Unary(Unary.Op.IS_NOT_NULL, operand(call, 0));
            case CAST, SAFE_CAST -> cast(call);
            case IS_NOT_DISTINCT_FROM -> SparkOperators.nullSafeEquals(operand(call, 0), operand(call, 1));
            case IS_DISTINCT_FROM -> not(SparkOperators.nullSafeEquals(operand(call, 0), operand(call, 1)));
            case RLIKE -> regexMatch(call);
            case BETWEEN -> between(call);
            case IN -> in(call, false);
            case NOT_IN -> in(call, true);
            case OTHER_FUNCTION, SUM, SUM0, COUNT, MIN, MAX, AVG, FLOOR, CEIL, DATE_TRUNC, STDDEV_POP, STDDEV_SAMP, VAR_POP,
                    VAR_SAMP, COVAR_POP, COVAR_SAMP, GROUPING, GROUPING_ID -> function(call);
            case TRIM -> trim(call);
            case POSITION -> position(call);
            case ITEM -> new ScalarFunction(ScalarFunction.Function.ITEM, List.of(operand(call, 0), operand(call, 1)));
            case DOT -> NestedPaths.fields(operand(call, 0), ((SqlIdentifier) call.operand(1)).names);
            case ARRAY_VALUE_CONSTRUCTOR -> new ScalarFunction(ScalarFunction.Function.ARRAY, operands(call));
            case MAP_VALUE_CONSTRUCTOR -> new ScalarFunction(ScalarFunction.Function.MAP, operands(call));
            case ROW -> new ScalarFunction(ScalarFunction.Function.STRUCT, operands(call));
            case OTHER -> call.getOperator().getName().equals("||")
                    ? new ScalarFunction(ScalarFunction.Function.CONCAT_OPERATOR, List.of(operand(call, 0), operand(call, 1)))
                    : call.getOperator() == DialectTree.INTEGER_DIVIDE ? new Binary(BinaryOp.DIV, operand(call, 0), operand(call, 1), mode)
                    : unsupportedOperator(call);
            case EXTRACT -> extract(call);
            case OVER -> WindowTranslator.translate(call, this::translate);
            case ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST, NTILE, LAG, LEAD, FIRST_VALUE, LAST_VALUE, NTH_VALUE ->
                    function(call);
            case FILTER -> throw SqlErrors.unsupported("FILTER clause on aggregate " + call.operand(0));
            case EXISTS -> new Exists(subquery(call.operand(0)), false, scope.id());
            case SOME, ALL -> quantified(call);
            case SELECT, SCALAR_QUERY, ORDER_BY, UNION, INTERSECT, EXCEPT -> new ScalarSubquery(
                    subquery(kind == SqlKind.SCALAR_QUERY ? call.operand(0) : call), scope.id());
            case CASE -> caseWhen((SqlCase) call);
            case LIKE -> like(call);
            case SIMILAR -> throw SqlErrors.unsupported(call.getOperator().getName());
            default -> unsupportedOperator(call);
        };
    }

    /**
     * {@code CAST(x AS type)} in the session's mode, {@code TRY_CAST} giving NULL for what does not
     * convert; Spark's cast to an integer type ({@link DialectTree#TRUNCATING_CAST})
     * truncates a fraction toward zero, where the cast kernel rounds.
     */
    private Expr cast(SqlCall call) {
        Expr input = operand(call, 0);
        DataType type = castType((SqlDataTypeSpec) call.operand(1));
        ArithmeticMode castMode = call.getKind() == SqlKind.SAFE_CAST ? ArithmeticMode.TRY : mode; // TRY_CAST, SAFE_CAST
        if (call.getOperator() == DialectTree.TRUNCATING_CAST && isFraction(input)) {
            return new Cast(SparkOperators.towardZero(input), type, castMode);
        }
        return new Cast(input, type, castMode);
    }

    /** Whether {@code e} is a double or a decimal with a fraction (false when its type cannot be told here). */
    private boolean isFraction(Expr e) {
        DataType type;
        try {
            type = e.type(scope.schema());
        } catch (RuntimeException unknown) {
            return false; // not typed against this scope alone (an alias of an aggregate): the kernel's cast
        }
        return type.kind() == DataType.Kind.FLOAT64 || type.kind() == DataType.Kind.DECIMAL && type.scale() > 0;
    }

    /** {@code s [NOT] RLIKE 'regex'} (also {@code REGEXP}): the regular expression found in {@code s}. */
    private Expr regexMatch(SqlCall call) {
        if (!(call.operand(1) instanceof SqlCharStringLiteral pattern)) {
            throw SqlErrors.unsupported("RLIKE with a pattern that is not a string constant");
        }
        return new RegexMatch(operand(call, 0), pattern.getValueAs(String.class), ((SqlLikeOperator) call.getOperator()).isNegated());
    }

    private static Expr unsupportedOperator(SqlCall call) {
        throw SqlErrors.unsupported("operator '" + call.getOperator().getName() + "'");
    }

    /** {@code trim([BOTH|LEADING|TRAILING] [' '] FROM s)}: only spaces are trimmed. */
    private Expr trim(SqlCall call) {
        if (!(call.operand(1) instanceof SqlCharStringLiteral chars) || !" ".equals(chars.getValueAs(String.class))) {
            throw SqlErrors.unsupported("trim of characters other than spaces");
        }
        ScalarFunction.Function f = switch (call.operand(0).toString().toUpperCase(Locale.ROOT)) {
            case "LEADING" -> ScalarFunction.Function.LTRIM;
            case "TRAILING" -> ScalarFunction.Function.RTRIM;
            default -> ScalarFunction.Function.TRIM;
        };
        return new ScalarFunction(f, List.of(operand(call, 2)));
    }

    /** {@code position(sub IN s)} is {@code strpos(s, sub)}. */
    private Expr position(SqlCall call) {
        if (call.operandCount() != 2) {
            throw SqlErrors.unsupported("position(... IN ... FROM start)");
        }
        return new ScalarFunction(ScalarFunction.Function.STRPOS, List.of(operand(call, 1), operand(call, 0)));
    }

    /** Today's date (UTC), fixed when the query is planned, so every row and task sees the same day. */
    private static Expr currentDate() {
        return FunctionLibrary.builtIn().call("current_date", List.of());
    }

    /** NOT over [NOT] EXISTS / [NOT] IN (subquery or list) flips the flag, so rules see one node. */
    private static Expr not(Expr e) {
        if (e instanceof Exists x) {
            return x.negate();
        }
        if (e instanceof InSubquery in) {
            return in.negate();
        }
        if (e instanceof InList in) {
            return in.negate();
        }
        return new Unary(Unary.Op.NOT, e);
    }

    private LogicalPlan subquery(SqlNode query) {
        if (subqueries == null) {
            throw SqlErrors.unsupported("subquery outside WHERE, HAVING and the select list");
        }
        return subqueries.plan(query);
    }

    /** {@code a + b} / {@code a - b}; with an INTERVAL literal on one side, date arithmetic. */
    private Expr plusOrMinus(SqlCall call, int sign) {
        if (call.operand(1) instanceof SqlIntervalLiteral interval) {
            return addInterval(operand(call, 0), Interval.of(interval), sign);
        }
        if (sign > 0 && call.operand(0) instanceof SqlIntervalLiteral interval) {
            return addInterval(operand(call, 1), Interval.of(interval), sign);
        }
        return binary(sign > 0 ? BinaryOp.ADD : BinaryOp.SUBTRACT, call);
    }

    private static Expr addInterval(Expr date, Interval interval, int sign) {
        return new AddInterval(date, Math.multiplyExact(sign, interval.months()),
                Math.multiplyExact(sign, interval.days()), Math.multiplyExact(sign, interval.micros()));
    }

    /** A constant interval of months, days and microseconds. */
    record Interval(int months, int days, long micros) {
        Interval(int months, int days) {
            this(months, days, 0);
        }

        /** A whole or fractional count of {@code unit} microseconds. */
        static Interval ofMicros(String text, int sign, long unit) {
            BigDecimal micros = new BigDecimal(text).multiply(BigDecimal.valueOf(unit));
            return new Interval(0, 0, Math.multiplyExact(sign, micros.setScale(0, java.math.RoundingMode.HALF_UP)
                    .longValueExact()));
        }

        static Interval of(SqlIntervalLiteral literal) {
            SqlIntervalLiteral.IntervalValue value = literal.getValueAs(SqlIntervalLiteral.IntervalValue.class);
            TimeUnitRange unit = value.getIntervalQualifier().timeUnitRange;
            String text = value.getIntervalLiteral().strip();
            int sign = value.getSign();
            try {
                return switch (unit) {
                    case YEAR -> new Interval(Math.multiplyExact(sign * 12, Integer.parseInt(text)), 0);
                    case MONTH -> new Interval(sign * Integer.parseInt(text), 0);
                    case WEEK -> new Interval(0, Math.multiplyExact(sign * 7, Integer.parseInt(text)));
                    case DAY -> new Interval(0, sign * Integer.parseInt(text));
                    case HOUR -> ofMicros(text, sign, TemporalValues.MICROS_PER_HOUR);
                    case MINUTE -> ofMicros(text, sign, TemporalValues.MICROS_PER_MINUTE);
                    case SECOND -> ofMicros(text, sign, TemporalValues.MICROS_PER_SECOND);
                    case YEAR_TO_MONTH -> {
                        boolean negative = text.startsWith("-");
                        String[] parts = (negative ? text.substring(1) : text).split("-");
                        if (parts.length != 2) {
                            throw new NumberFormatException(text);
                        }
                        int months = Math.addExact(Math.multiplyExact(12, Integer.parseInt(parts[0].strip())),
                                Integer.parseInt(parts[1].strip()));
                        yield new Interval(negative ? -sign * months : sign * months, 0);
                    }
                    default -> throw SqlErrors.unsupported("INTERVAL " + unit
                            + " (intervals of YEAR, MONTH, WEEK, DAY, HOUR, MINUTE and SECOND are supported)");
                };
            } catch (NumberFormatException | ArithmeticException e) {
                throw new SluiceException("invalid INTERVAL '" + text + "' " + unit
                        + ": expected a whole number" + (unit == TimeUnitRange.YEAR_TO_MONTH ? "s 'years-months'" : ""), e);
            }
        }
    }

    private List<Expr> operands(SqlCall call) {
        List<Expr> out = new ArrayList<>(call.operandCount());
        for (SqlNode operand : call.getOperandList()) {
            out.add(expr(operand));
        }
        return out;
    }

    private Expr operand(SqlCall call, int index) {
        return expr(call.operand(index));
    }

    /** {@code a op b}; arithmetic in the session's mode (overflow, division by zero). */
    private Expr binary(BinaryOp op, SqlCall call) {
        return new Binary(op, operand(call, 0), operand(call, 1), op.kind() == BinaryOp.Kind.ARITHMETIC ? mode : ArithmeticMode.STRICT);
    }

    private Expr fold(BinaryOp op, SqlCall call) {
        Expr out = operand(call, 0);
        for (int i = 1; i < call.operandCount(); i++) {
            out = new Binary(op, out, operand(call, i));
        }
        return out;
    }

    /** {@code x BETWEEN a AND b} is {@code x >= a AND x <= b}; NOT BETWEEN is its complement. */
    private Expr between(SqlCall call) {
        SqlBetweenOperator op = (SqlBetweenOperator) call.getOperator();
        if (op.flag == SqlBetweenOperator.Flag.SYMMETRIC) {
            throw SqlErrors.unsupported("BETWEEN SYMMETRIC");
        }
        Expr value = operand(call, 0);
        Expr low = operand(call, 1);
        Expr high = operand(call, 2);
        if (op.isNegated()) {
            return new Binary(BinaryOp.OR, new Binary(BinaryOp.LT, value, low), new Binary(BinaryOp.GT, value, high));
        }
        return new Binary(BinaryOp.AND, new Binary(BinaryOp.GT_EQ, value, low), new Binary(BinaryOp.LT_EQ, value, high));
    }

    /** Searched CASE as is; simple {@code CASE x WHEN a ...} becomes {@code CASE WHEN x = a ...}. */
    private Expr caseWhen(SqlCase call) {
        Expr value = call.getValueOperand() == null ? null : expr(call.getValueOperand());
        List<Expr> conditions = new ArrayList<>();
        List<Expr> results = new ArrayList<>();
        for (SqlNode when : call.getWhenOperands()) {
            Expr condition = expr(when);
            conditions.add(value == null ? condition : new Binary(BinaryOp.EQ, value, condition));
        }
        for (SqlNode then : call.getThenOperands()) {
            results.add(expr(then));
        }
        SqlNode otherwise = call.getElseOperand();
        return new Case(conditions, results, otherwise == null ? Literal.nullValue() : expr(otherwise));
    }

    /** LIKE with a constant pattern; an ESCAPE character is not supported. */
    private Expr like(SqlCall call) {
        SqlLikeOperator op = (SqlLikeOperator) call.getOperator();
        if (call.operandCount() > 2) {
            throw SqlErrors.unsupported(op.getName() + " ... ESCAPE");
        }
        if (!(call.operand(1) instanceof SqlCharStringLiteral pattern)) {
            throw SqlErrors.unsupported(op.getName() + " with a pattern that is not a string constant");
        }
        return new Like(operand(call, 0), pattern.getValueAs(String.class), op.isNegated(), !op.isCaseSensitive());
    }

    /**
     * {@code x [NOT] IN (a, b)} is an {@link InList} (one item: the comparison {@code x = a});
     * {@code x [NOT] IN (SELECT ...)} is an {@link InSubquery}.
     */
    private Expr in(SqlCall call, boolean negated) {
        if (call.operand(0) instanceof SqlNodeList) {
            throw SqlErrors.unsupported("row value in IN");
        }
        if (!(call.operand(1) instanceof SqlNodeList list)) {
            return new InSubquery(operand(call, 0), subquery(call.operand(1)), negated, scope.id());
        }
        List<Expr> items = new ArrayList<>();
        for (SqlNode item : list) {
            items.add(expr(item));
        }
        return InList.of(operand(call, 0), items, negated);
    }

    /** {@code x op ANY|SOME|ALL (SELECT ...)}; a list after ANY / ALL is not supported. */
    private Expr quantified(SqlCall call) {
        if (!(call.getOperator() instanceof org.apache.calcite.sql.fun.SqlQuantifyOperator q)) {
            return unsupportedOperator(call);
        }
        BinaryOp op = switch (q.comparisonKind) {
            case EQUALS -> BinaryOp.EQ;
            case NOT_EQUALS -> BinaryOp.NOT_EQ;
            case LESS_THAN -> BinaryOp.LT;
            case LESS_THAN_OR_EQUAL -> BinaryOp.LT_EQ;
            case GREATER_THAN -> BinaryOp.GT;
            case GREATER_THAN_OR_EQUAL -> BinaryOp.GT_EQ;
            default -> throw SqlErrors.unsupported("operator '" + q.getName() + "'");
        };
        if (call.operand(1) instanceof SqlNodeList) {
            throw SqlErrors.unsupported(q.getName() + " over a list of values (use a subquery)");
        }
        return new QuantifiedComparison(operand(call, 0), op, subquery(call.operand(1)), call.getKind() == SqlKind.ALL,
                scope.id());
    }

    /** {@code extract(field FROM date_or_timestamp)}. */
    private Expr extract(SqlCall call) {
        return new Extract(Extract.Field.named(call.operand(0).toString()), operand(call, 1));
    }

    /**
     * A function call by name: what is syntax stays here ({@code count(*)}, {@code DISTINCT},
     * {@code grouping}, {@code date_add} with an INTERVAL, window functions without OVER, a
     * zero-argument call that names a column); every other name is the {@link FunctionLibrary}'s.
     */
    private Expr function(SqlCall call) {
        String name = call.getOperator().getName().toLowerCase(Locale.ROOT);
        if (name.equals("translate3")) {
            name = "translate"; // Calcite's name for three-argument translate
        }
        if ((name.equals("date_add") || name.equals("date_sub")) && call.operandCount() == 2
                && call.operand(1) instanceof SqlIntervalLiteral interval) {
            return addInterval(operand(call, 0), Interval.of(interval), name.equals("date_add") ? 1 : -1);
        }
        if (call.operandCount() == 0 && call.getOperator().getSyntax() == SqlSyntax.FUNCTION_ID
                && scope.hasColumn(name)) {
            return scope.unqualified(call.getOperator().getName()); // a column named like user, current_date
        }
        if (name.equals("grouping") || name.equals("grouping_id")) {
            List<Expr> args = new ArrayList<>();
            call.getOperandList().forEach(o -> args.add(expr(o)));
            return new GroupingCall(name, args);
        }
        SqlLiteral quantifier = call.getFunctionQuantifier();
        boolean distinct = quantifier != null && quantifier.getValue() == SqlSelectKeyword.DISTINCT;
        if (call.operandCount() == 1 && call.operand(0) instanceof SqlIdentifier id && id.isStar()) {
            if (!name.equals("count") || id.names.size() != 1) {
                throw new SluiceException(name + "(" + id + ") is not valid; only count(*) takes '*'");
            }
            if (distinct) {
                throw new SluiceException("count(DISTINCT *) is not valid; name the columns to count");
            }
            return new AggregateCall(AggregateFunction.COUNT_STAR, null);
        }
        return libraryCall(library, name, operands(call), distinct);
    }

    /**
     * The library's function {@code name} on {@code args} ({@code distinct}: an aggregate over
     * distinct values), as SQL and the DataFrame API ({@link SqlExpressions#call}) call it.
     */
    static Expr libraryCall(String name, List<Expr> args, boolean distinct) {
        return libraryCall(PlanningContext.library(), name, args, distinct);
    }

    private static Expr libraryCall(FunctionLibrary library, String name, List<Expr> args, boolean distinct) {
        if (!library.contains(name) && WindowFunction.of(name) != null) {
            throw new SluiceException(name + "() is a window function and needs an OVER clause");
        }
        if (!library.isAggregate(name)) {
            if (distinct) {
                throw new SluiceException("DISTINCT is only valid in an aggregate function, not in " + name + "()");
            }
            Expr sessions = library.contains(name) ? null : PlanningContext.functions().call(name, args);
            return sessions != null ? sessions : library.call(name, args);
        }
        for (Expr argument : args) {
            if (Exprs.containsWindow(argument)) {
                throw new SluiceException("window functions are not allowed inside aggregate " + name + "(" + argument + ")");
            }
            if (Exprs.containsAggregate(argument)) {
                throw new SluiceException("aggregate calls cannot be nested: " + name + "(" + argument + ")");
            }
        }
        Expr aggregate = library.call(name, args);
        if (!distinct) {
            return aggregate;
        }
        if (!(aggregate instanceof AggregateCall a) || a.second() != null) {
            throw SqlErrors.unsupported(name + "(DISTINCT ...)");
        }
        return new AggregateCall(a.function(), new DistinctArgument(a.argument()), null);
    }

    private static DataType castType(SqlDataTypeSpec spec) {
        SqlTypeNameSpec nameSpec = spec.getTypeNameSpec();
        String name = nameSpec.getTypeName().getSimple().toUpperCase(Locale.ROOT);
        int precision = -1;
        int scale = -1;
        if (nameSpec instanceof SqlBasicTypeNameSpec basic) {
            precision = basic.getPrecision();
            scale = basic.getScale();
        }
        return switch (name) {
            case "TINYINT", "SMALLINT", "INT", "INTEGER" -> DataType.INT32;
            case "BIGINT" -> DataType.INT64;
            case "DOUBLE", "FLOAT", "REAL" -> DataType.FLOAT64;
            case "DECIMAL", "NUMERIC", "DEC" -> precision < 0
                    ? DataType.decimal(18, 3) // DuckDB's default for a bare DECIMAL
                    : DataType.decimal(precision, Math.max(0, scale));
            case "VARCHAR", "CHAR", "CHARACTER", "STRING", "TEXT" -> DataType.UTF8;
            case "DATE" -> DataType.DATE32;
            case "TIMESTAMP", "DATETIME" -> DataType.TIMESTAMP;
            case "BOOLEAN", "BOOL" -> DataType.BOOL;
            default -> throw SqlErrors.unsupported("cast to " + name);
        };
    }
}
