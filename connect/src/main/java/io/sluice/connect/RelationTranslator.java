package io.sluice.connect;

import static java.util.Objects.requireNonNull;

import io.sluice.api.Column;
import io.sluice.api.DataFrame;
import io.sluice.api.DataFrameReader;
import io.sluice.api.FrontEnds;
import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.connect.proto.Expression;
import io.sluice.connect.proto.Read;
import io.sluice.connect.proto.Relation;
import io.sluice.datasource.file.HadoopConfiguration;
import io.sluice.kernels.QueryResult;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.plan.EmptyRelation;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.SubqueryAlias;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Spark Connect relations as DataFrames of the Java API (one planner behind both front ends). A
 * relation Sluice has no counterpart for is refused with its Spark name, never half-translated.
 */
final class RelationTranslator {
    private final ConnectSession session;
    private final ExpressionTranslator expressions;
    /** The DataFrames translated so far by their client plan ids ({@code df("a")} names a column of one). */
    private final Map<Long, DataFrame> byPlanId = new HashMap<>();

    RelationTranslator(ConnectSession session, SparkFunctions functions) {
        this.session = requireNonNull(session, "session is null");
        this.expressions = new ExpressionTranslator(functions, byPlanId::get);
    }

    DataFrame translate(Relation relation) {
        DataFrame df = translateType(relation);
        if (relation.hasCommon() && relation.getCommon().hasPlanId()) {
            byPlanId.put(relation.getCommon().getPlanId(), df);
        }
        return df;
    }

    private DataFrame translateType(Relation r) {
        return switch (r.getRelTypeCase()) {
            case SQL -> session.sql(SqlArguments.bind(r.getSql(), this::argument));
            case READ -> read(r.getRead());
            case PROJECT -> project(translate(r.getProject().getInput()), r.getProject().getExpressionsList());
            case FILTER -> {
                DataFrame input = translate(r.getFilter().getInput());
                yield input.filter(column(expressions.translate(r.getFilter().getCondition(), input.logicalPlan())));
            }
            case SORT -> {
                DataFrame input = translate(r.getSort().getInput());
                yield input.orderBy(r.getSort().getOrderList().stream()
                        .map(o -> expressions.sortKey(o, input.logicalPlan())).toArray(SortKey[]::new));
            }
            case LIMIT -> translate(r.getLimit().getInput()).limit(r.getLimit().getLimit());
            case OFFSET -> translate(r.getOffset().getInput()).offset(r.getOffset().getOffset());
            case TAIL -> tail(translate(r.getTail().getInput()), r.getTail().getLimit());
            case AGGREGATE -> aggregate(r.getAggregate());
            case LOCAL_RELATION -> local(r.getLocalRelation());
            case RANGE -> range(r.getRange());
            case SUBQUERY_ALIAS -> {
                DataFrame input = translate(r.getSubqueryAlias().getInput());
                yield derive(new SubqueryAlias(input.logicalPlan(), r.getSubqueryAlias().getAlias()));
            }
            case SHOW_STRING -> showString(r.getShowString());
            case WITH_COLUMNS -> withColumns(r.getWithColumns());
            case WITH_COLUMNS_RENAMED -> renamed(r.getWithColumnsRenamed());
            case DROP -> drop(r.getDrop());
            case TO_DF -> toDf(r.getToDf());
            case HINT -> translate(r.getHint().getInput()).hint(r.getHint().getName(), r.getHint().getParametersList().stream()
                    .map(p -> p.hasLiteral() ? value(p.getLiteral()) : p.toString()).toArray());
            case REPARTITION -> {
                DataFrame input = translate(r.getRepartition().getInput());
                int n = r.getRepartition().getNumPartitions();
                yield r.getRepartition().getShuffle() ? input.repartition(n) : input.coalesce(n);
            }
            case REPARTITION_BY_EXPRESSION -> {
                DataFrame input = translate(r.getRepartitionByExpression().getInput());
                Column[] keys = r.getRepartitionByExpression().getPartitionExprsList().stream()
                        .map(e -> column(expressions.translate(e, input.logicalPlan()))).toArray(Column[]::new);
                yield r.getRepartitionByExpression().hasNumPartitions()
                        ? input.repartition(r.getRepartitionByExpression().getNumPartitions(), keys) : input.repartition(keys);
            }
            case JOIN -> join(r.getJoin());
            case SET_OP -> setOperation(r.getSetOp());
            case DEDUPLICATE -> {
                io.sluice.connect.proto.Deduplicate d = r.getDeduplicate();
                DataFrame input = translate(d.getInput());
                yield d.getColumnNamesCount() == 0 || d.getAllColumnsAsKeys() ? input.dropDuplicates()
                        : input.dropDuplicates(d.getColumnNamesList().toArray(String[]::new));
            }
            case FILL_NA -> fillNa(r.getFillNa());
            case DROP_NA -> {
                io.sluice.connect.proto.NADrop d = r.getDropNa();
                DataFrame input = translate(d.getInput());
                String[] cols = d.getColsCount() == 0 ? input.columns() : d.getColsList().toArray(String[]::new);
                yield d.hasMinNonNulls() ? input.na().drop(d.getMinNonNulls(), cols) : input.na().drop("any", cols);
            }
            case REPLACE -> replace(r.getReplace());
            case SAMPLE -> sample(r.getSample());
            case UNPIVOT -> unpivot(r.getUnpivot());
            case DESCRIBE -> translate(r.getDescribe().getInput()).describe(r.getDescribe().getColsList().toArray(String[]::new));
            case SUMMARY -> translate(r.getSummary().getInput()).summary(r.getSummary().getStatisticsList().toArray(String[]::new));
            case CATALOG -> CatalogCalls.translate(r.getCatalog(), session);
            default -> throw unsupported(r.getRelTypeCase().name());
        };
    }

    static SluiceException unsupported(String relType) {
        return new SluiceException("Spark Connect relation " + relType.toLowerCase(Locale.ROOT)
                + " is not supported by Sluice");
    }

    private Expr argument(Expression e) {
        return expressions.translate(e, ExpressionTranslator.NO_INPUT);
    }

    private DataFrame derive(LogicalPlan plan) {
        return FrontEnds.dataFrame(session.api(), plan);
    }

    private static Column column(Expr expr) {
        return FrontEnds.column(expr);
    }

    private DataFrame read(Read read) {
        if (read.getIsStreaming()) {
            throw new SluiceException("streaming reads are not supported by Sluice (a batch engine)");
        }
        if (read.hasNamedTable()) {
            return session.api().table(read.getNamedTable().getUnparsedIdentifier());
        }
        Read.DataSource source = read.getDataSource();
        if (source.getPathsCount() == 0) {
            throw new SluiceException("read of format " + source.getFormat() + " without a path is not supported by Sluice");
        }
        DataFrameReader reader = session.api().read().format(source.hasFormat() ? source.getFormat() : "parquet")
                .options(fileOptions(source.getOptionsMap()));
        if (source.hasSchema() && !source.getSchema().isBlank()) {
            reader = reader.schema(SparkTypes.parseSchema(source.getSchema()));
        }
        List<String> paths = source.getPathsList();
        return reader.load(paths.get(0), paths.subList(1, paths.size()).toArray(String[]::new));
    }

    /**
     * A reader's or writer's options as the Java API's take them: Spark hands a file source's options
     * to Hadoop too, so an option of a file system ({@code fs.s3a.endpoint}) is that Hadoop key for
     * this read or write only ({@code sluice.hadoop.fs.s3a.endpoint}), carried with the scan or the
     * write to every worker.
     */
    static Map<String, String> fileOptions(Map<String, String> options) {
        Map<String, String> out = new LinkedHashMap<>();
        options.forEach((name, value) -> out.put(name.startsWith("fs.") ? HadoopConfiguration.PREFIX + name : name, value));
        return out;
    }

    private DataFrame project(DataFrame input, List<Expression> list) {
        List<Expr> exprs = new ArrayList<>();
        for (Expression e : list) {
            if (e.hasExpressionString() && e.getExpressionString().getExpression().trim().equals("*")) {
                input.schema().names().forEach(n -> exprs.add(new io.sluice.logical.expr.Column(n)));
            } else {
                exprs.addAll(expressions.selectList(List.of(e), input.logicalPlan()));
            }
        }
        return input.select(exprs.stream().map(RelationTranslator::column).toArray(Column[]::new));
    }

    private DataFrame aggregate(io.sluice.connect.proto.Aggregate a) {
        DataFrame input = translate(a.getInput());
        LogicalPlan plan = input.logicalPlan();
        Column[] keys = a.getGroupingExpressionsList().stream().map(e -> column(expressions.translate(e, plan))).toArray(Column[]::new);
        Column[] aggs = a.getAggregateExpressionsList().stream().map(e -> column(expressions.translate(e, plan))).toArray(Column[]::new);
        return switch (a.getGroupType()) {
            case GROUP_TYPE_GROUPBY -> input.groupBy(keys).agg(aggs);
            case GROUP_TYPE_ROLLUP -> input.rollup(keys).agg(aggs);
            case GROUP_TYPE_CUBE -> input.cube(keys).agg(aggs);
            case GROUP_TYPE_PIVOT -> {
                Expression pivot = a.getPivot().getCol();
                if (!pivot.hasUnresolvedAttribute()) {
                    throw new SluiceException("pivot takes a column name, not " + pivot.getExprTypeCase());
                }
                String name = pivot.getUnresolvedAttribute().getUnparsedIdentifier();
                yield a.getPivot().getValuesCount() == 0 ? input.groupBy(keys).pivot(name).agg(aggs)
                        : input.groupBy(keys).pivot(name, a.getPivot().getValuesList().stream().map(RelationTranslator::value).toList())
                                .agg(aggs);
            }
            default -> throw new SluiceException("aggregate " + a.getGroupType().name().substring("GROUP_TYPE_".length())
                    .toLowerCase(Locale.ROOT) + " is not supported by Sluice over Spark Connect");
        };
    }

    private DataFrame tail(DataFrame input, int n) {
        QueryResult all = session.collect(input);
        List<List<Object>> rows = all.rows();
        return FrontEnds.dataFrame(session.api(), new QueryResult(all.schema(), rows.subList(Math.max(0, rows.size() - n), rows.size())));
    }

    private DataFrame local(io.sluice.connect.proto.LocalRelation local) {
        if (local.hasData()) {
            QueryResult rows = LocalRelations.decode(local.getData().toByteArray());
            if (local.hasSchema()) {
                rows = LocalRelations.rename(rows, SparkTypes.parseSchema(local.getSchema()));
            }
            return FrontEnds.dataFrame(session.api(), rows);
        }
        if (!local.hasSchema()) {
            throw new SluiceException("a local relation needs data or a schema");
        }
        return derive(new EmptyRelation(SparkTypes.parseSchema(local.getSchema())));
    }

    private DataFrame range(io.sluice.connect.proto.Range range) {
        long start = range.hasStart() ? range.getStart() : 0;
        return range.hasNumPartitions()
                ? session.api().range(start, range.getEnd(), range.getStep(), range.getNumPartitions())
                : session.api().range(start, range.getEnd(), range.getStep());
    }

    private DataFrame join(io.sluice.connect.proto.Join j) {
        DataFrame left = translate(j.getLeft());
        DataFrame right = translate(j.getRight());
        String type = switch (j.getJoinType()) {
            case JOIN_TYPE_INNER, JOIN_TYPE_UNSPECIFIED -> "inner";
            case JOIN_TYPE_FULL_OUTER -> "full_outer";
            case JOIN_TYPE_LEFT_OUTER -> "left_outer";
            case JOIN_TYPE_RIGHT_OUTER -> "right_outer";
            case JOIN_TYPE_LEFT_ANTI -> "left_anti";
            case JOIN_TYPE_LEFT_SEMI -> "left_semi";
            case JOIN_TYPE_CROSS -> "cross";
            default -> throw new SluiceException("join type " + j.getJoinType() + " is not supported");
        };
        if (j.getUsingColumnsCount() > 0) {
            return left.join(right, j.getUsingColumnsList(), type);
        }
        if (j.hasJoinCondition()) {
            return left.join(right, column(expressions.translate(j.getJoinCondition(), left.logicalPlan())), type);
        }
        return left.crossJoin(right);
    }

    private DataFrame setOperation(io.sluice.connect.proto.SetOperation op) {
        DataFrame left = translate(op.getLeftInput());
        DataFrame right = translate(op.getRightInput());
        boolean all = op.getIsAll();
        return switch (op.getSetOpType()) {
            case SET_OP_TYPE_UNION -> {
                DataFrame union = op.getByName() ? left.unionByName(right, op.getAllowMissingColumns()) : left.union(right);
                yield all ? union : union.distinct();
            }
            case SET_OP_TYPE_INTERSECT -> all ? left.intersectAll(right) : left.intersect(right);
            case SET_OP_TYPE_EXCEPT -> all ? left.exceptAll(right) : left.except(right);
            default -> throw new SluiceException("set operation " + op.getSetOpType() + " is not supported");
        };
    }

    private DataFrame fillNa(io.sluice.connect.proto.NAFill fill) {
        DataFrame input = translate(fill.getInput());
        if (fill.getValuesCount() == 1) {
            Object value = value(fill.getValues(0));
            return fill.getColsCount() == 0 ? input.na().fill(value) : input.na().fill(value, fill.getColsList().toArray(String[]::new));
        }
        if (fill.getValuesCount() != fill.getColsCount()) {
            throw new SluiceException("na.fill got " + fill.getValuesCount() + " values for " + fill.getColsCount() + " columns");
        }
        Map<String, Object> values = new java.util.LinkedHashMap<>();
        for (int i = 0; i < fill.getColsCount(); i++) {
            values.put(fill.getCols(i), value(fill.getValues(i)));
        }
        return input.na().fill(values);
    }

    private DataFrame replace(io.sluice.connect.proto.NAReplace replace) {
        DataFrame input = translate(replace.getInput());
        Map<Object, Object> pairs = new java.util.LinkedHashMap<>();
        replace.getReplacementsList().forEach(p -> pairs.put(value(p.getOldValue()), value(p.getNewValue())));
        String[] cols = replace.getColsCount() == 0 ? input.columns() : replace.getColsList().toArray(String[]::new);
        return input.na().replace(cols, pairs);
    }

    private DataFrame sample(io.sluice.connect.proto.Sample sample) {
        DataFrame input = translate(sample.getInput());
        double fraction = sample.getUpperBound() - sample.getLowerBound();
        return input.sample(sample.getWithReplacement(), fraction,
                sample.hasSeed() ? sample.getSeed() : new java.util.Random().nextLong());
    }

    private DataFrame unpivot(io.sluice.connect.proto.Unpivot unpivot) {
        DataFrame input = translate(unpivot.getInput());
        Column[] ids = unpivot.getIdsList().stream().map(e -> column(expressions.translate(e, input.logicalPlan())))
                .toArray(Column[]::new);
        Column[] values = unpivot.hasValues() ? unpivot.getValues().getValuesList().stream()
                .map(e -> column(expressions.translate(e, input.logicalPlan()))).toArray(Column[]::new) : new Column[0];
        return input.unpivot(ids, values, unpivot.getVariableColumnName(), unpivot.getValueColumnName());
    }

    /** A literal as the Java value the DataFrame API takes (na.fill, pivot values, hint parameters). */
    static Object value(Expression.Literal literal) {
        io.sluice.logical.expr.Literal l = ExpressionTranslator.literal(literal);
        Object v = l.value();
        return switch (l.type().kind()) {
            case DECIMAL -> new java.math.BigDecimal(v instanceof Long n ? java.math.BigInteger.valueOf(n) : (java.math.BigInteger) v,
                    l.type().scale());
            case DATE32 -> java.time.LocalDate.ofEpochDay((Long) v);
            case INT32 -> ((Long) v).intValue();
            default -> v;
        };
    }

    private DataFrame showString(io.sluice.connect.proto.ShowString show) {
        DataFrame input = translate(show.getInput());
        int numRows = Math.max(0, show.getNumRows());
        QueryResult rows = session.collect(input.limit(numRows + 1L));
        String text = ShowString.format(rows, numRows, show.getTruncate(), show.getVertical());
        return FrontEnds.dataFrame(session.api(), new QueryResult(Schema.of(new Field("show_string", DataType.UTF8)),
                List.of(List.of(text))));
    }

    private DataFrame withColumns(io.sluice.connect.proto.WithColumns with) {
        DataFrame df = translate(with.getInput());
        for (Expression.Alias alias : with.getAliasesList()) {
            if (alias.getNameCount() != 1) {
                throw new SluiceException("withColumns needs one name per column, not " + alias.getNameList());
            }
            df = df.withColumn(alias.getName(0), column(expressions.translate(alias.getExpr(), df.logicalPlan())));
        }
        return df;
    }

    private DataFrame renamed(io.sluice.connect.proto.WithColumnsRenamed renamed) {
        DataFrame input = translate(renamed.getInput());
        Map<String, String> renames = new HashMap<>();
        renamed.getRenameColumnsMapMap().forEach((k, v) -> renames.put(k.toLowerCase(Locale.ROOT), v));
        renamed.getRenamesList().forEach(r -> renames.put(r.getColName().toLowerCase(Locale.ROOT), r.getNewColName()));
        List<Column> columns = new ArrayList<>();
        for (String name : input.schema().names()) {
            String to = renames.get(name.toLowerCase(Locale.ROOT));
            io.sluice.logical.expr.Column c = new io.sluice.logical.expr.Column(name);
            columns.add(column(to == null ? c : new Alias(c, to)));
        }
        return input.select(columns.toArray(Column[]::new));
    }

    private DataFrame drop(io.sluice.connect.proto.Drop drop) {
        DataFrame input = translate(drop.getInput());
        List<String> dropped = new ArrayList<>();
        drop.getColumnNamesList().forEach(n -> dropped.add(n.toLowerCase(Locale.ROOT)));
        for (Expression e : drop.getColumnsList()) {
            if (!e.hasUnresolvedAttribute()) {
                throw new SluiceException("drop takes column names, not " + e.getExprTypeCase());
            }
            dropped.add(e.getUnresolvedAttribute().getUnparsedIdentifier().toLowerCase(Locale.ROOT));
        }
        Column[] kept = input.schema().names().stream().filter(n -> !dropped.contains(n.toLowerCase(Locale.ROOT)))
                .map(n -> column(new io.sluice.logical.expr.Column(n))).toArray(Column[]::new);
        return input.select(kept);
    }

    private DataFrame toDf(io.sluice.connect.proto.ToDF toDf) {
        DataFrame input = translate(toDf.getInput());
        List<String> names = input.schema().names();
        if (toDf.getColumnNamesCount() != names.size()) {
            throw new SluiceException("toDF got " + toDf.getColumnNamesCount() + " names for " + names.size() + " columns "
                    + names);
        }
        Column[] columns = new Column[names.size()];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = column(new Alias(new io.sluice.logical.expr.Column(names.get(i)), toDf.getColumnNames(i)));
        }
        return input.select(columns);
    }
}
