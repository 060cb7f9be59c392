package io.sluice.sql;

import static java.util.Objects.requireNonNull;

import io.sluice.logical.plan.LogicalPlan;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;

/**
 * A query ended by Spark's {@code CLUSTER BY}, {@code DISTRIBUTE BY} or {@code SORT BY}, put in the
 * parsed tree where the query stood ({@link QueryOrganization#attach}), so that it is planned
 * wherever a query can be (subquery, WITH, view, set operation branch, under a LIMIT) and the clause
 * applied to its result.
 */
final class OrganizedQuery extends SqlCall {
    /** Of kind SELECT, so that it is a subquery wherever one can stand in an expression. */
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("ORGANIZED", SqlKind.SELECT);

    private final SqlNode query;
    private final QueryOrganization.Clause clause;
    private final SqlDialect dialect;

    OrganizedQuery(SqlNode query, QueryOrganization.Clause clause, SqlDialect dialect) {
        super(query.getParserPosition());
        this.query = requireNonNull(query, "query is null");
        this.clause = requireNonNull(clause, "clause is null");
        this.dialect = requireNonNull(dialect, "dialect is null");
    }

    SqlNode query() {
        return query;
    }

    /** {@code plan} (the query's) with the clause applied. */
    LogicalPlan organize(LogicalPlan plan) {
        return QueryOrganization.apply(plan, clause, dialect);
    }

    @Override
    public SqlOperator getOperator() {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return List.of(query);
    }
}
