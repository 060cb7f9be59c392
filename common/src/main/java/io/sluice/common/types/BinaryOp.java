package io.sluice.common.types;

/** Binary operators, grouped by how they type and evaluate. */
public enum BinaryOp {
    ADD("+", Kind.ARITHMETIC), SUBTRACT("-", Kind.ARITHMETIC), MULTIPLY("*", Kind.ARITHMETIC),
    DIVIDE("/", Kind.ARITHMETIC), MODULO("%", Kind.ARITHMETIC),
    /** Spark's {@code DIV}: the quotient truncated toward zero, a BIGINT computed in integer arithmetic. */
    DIV("DIV", Kind.ARITHMETIC),
    EQ("=", Kind.COMPARISON), NOT_EQ("<>", Kind.COMPARISON), LT("<", Kind.COMPARISON),
    LT_EQ("<=", Kind.COMPARISON), GT(">", Kind.COMPARISON), GT_EQ(">=", Kind.COMPARISON),
    AND("AND", Kind.LOGICAL), OR("OR", Kind.LOGICAL);

    public enum Kind { ARITHMETIC, COMPARISON, LOGICAL }

    private final String symbol;
    private final Kind kind;

    BinaryOp(String symbol, Kind kind) {
        this.symbol = symbol;
        this.kind = kind;
    }

    public String symbol() {
        return symbol;
    }

    public Kind kind() {
        return kind;
    }

    /** The comparison that holds with operands swapped ({@code a < b} iff {@code b > a}). */
    public BinaryOp flip() {
        return switch (this) {
            case LT -> GT;
            case LT_EQ -> GT_EQ;
            case GT -> LT;
            case GT_EQ -> LT_EQ;
            default -> this;
        };
    }
}
