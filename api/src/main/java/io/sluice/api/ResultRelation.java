package io.sluice.api;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.kernels.QueryResult;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.plan.EmptyRelation;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.sql.SqlFrontEnd;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/** A computed result (a statement's status or EXPLAIN text) as a plan of constant rows, so DataFrames can build on it. */
final class ResultRelation {
    private ResultRelation() {
    }

    static LogicalPlan of(QueryResult result) {
        if (result.rows().isEmpty()) {
            return new EmptyRelation(result.schema());
        }
        List<List<Expr>> rows = new ArrayList<>();
        for (List<Object> row : result.rows()) {
            List<Expr> exprs = new ArrayList<>();
            for (int i = 0; i < row.size(); i++) {
                exprs.add(literal(row.get(i), result.schema().field(i)));
            }
            rows.add(exprs);
        }
        return SqlFrontEnd.constantRows(result.schema().names(), rows);
    }

    private static Literal literal(Object value, Field field) {
        DataType type = field.type();
        if (value == null) {
            return new Literal(null, type);
        }
        return switch (type.kind()) {
            case INT32, INT64 -> new Literal(((Number) value).longValue(), type);
            case DECIMAL -> new Literal(((BigDecimal) value).setScale(type.scale()).unscaledValue().longValueExact(), type);
            case DATE32 -> new Literal(((LocalDate) value).toEpochDay(), type);
            case TIMESTAMP -> new Literal(io.sluice.common.types.TemporalValues.of((java.time.LocalDateTime) value), type);
            default -> new Literal(value, type);
        };
    }
}
