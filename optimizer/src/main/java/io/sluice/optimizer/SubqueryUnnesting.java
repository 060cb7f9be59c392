package io.sluice.optimizer;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Case;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.OuterColumn;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.expr.Unary;
import io.sluice.logical.expr.WindowCall;
import io.sluice.logical.expr.WindowFunction;
import io.sluice.logical.plan.Aggregate;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.JoinMark;
import io.sluice.logical.plan.JoinType;
import io.sluice.logical.plan.Limit;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.logical.plan.Sort;
import io.sluice.logical.plan.SubqueryAlias;
import io.sluice.logical.plan.SubqueryExpr;
import io.sluice.logical.plan.Union;
import io.sluice.logical.plan.Window;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Removes the correlation from one subquery plan, after Neumann and Kemper ("Unnesting Arbitrary
 * Queries", BTW 2015): the dependent join of the outer input with the subquery is pushed down the
 * subquery until no node reads an outer column. The result ({@link Unnested}) is a plan without
 * outer references plus how its rows relate to an outer row:
 *
 * <ul>
 *   <li><b>pulled predicates</b>: correlated conjuncts of filters, pulled up through the nodes that
 *       let them pass (filters, projections, aliases, inner joins, the preserved side of left,
 *       semi, anti and mark joins, and aggregates when they are equalities, which become grouping
 *       keys). The caller makes them the new join's keys and residual filter. This is the cheap
 *       case, and every TPC-H subquery is of it.
 *   <li><b>the domain</b>: where a predicate cannot pass (a non-equality under an aggregate, an
 *       outer reference in a projection, an aggregate argument or a join condition, correlation
 *       in both inputs of a join or in a join's non-preserved input, a global aggregate below
 *       the top, a union), the duplicate-free set of the outer input's correlated values,
 *       {@code D = distinct(outer columns)}, is joined in at the lowest correlated nodes and carried
 *       up as columns; outer references become reads of those columns, a global aggregate
 *       becomes one grouped by them (left-joined back to D, so a value with no rows still gets
 *       its row: count 0), and the caller joins on them with NULL-safe equality.
 * </ul>
 *
 * <p>{@code ORDER BY} without a limit inside a subquery is dropped (it means nothing there). A
 * {@code LIMIT} (or a sort with a fetch) over a correlated input holds per outer value: it becomes a
 * {@code row_number()} window partitioned by the outer value and a filter on it, as in DuckDB; a
 * window over a correlated input gets the outer value as its first partitioning key; a correlated
 * right or full join joins the domain into both inputs. Outer references in plans nested deeper
 * that could not be unnested raise {@link Unsupported}; the caller then leaves the subquery in
 * place and it fails at execution naming it.
 *
 * <p>Long on purpose: it is one recursive rewrite, one case per node kind, and every case shares
 * the same state (the outer input, its correlated columns, the names taken, the domain copies)
 * and calls back into {@link #unnest}; split apart, each piece would need all of it.
 */
final class SubqueryUnnesting {
    /** Thrown where a correlated shape has no rewrite here. */
    static final class Unsupported extends RuntimeException {
        Unsupported(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * A subquery without outer references: for an outer row {@code o}, the subquery's rows are
     * those of {@code plan} satisfying every {@code pulled} predicate (which read outer columns as
     * {@link OuterColumn}s) and, when {@code domain}, whose domain columns equal {@code o}'s values
     * NULL-safely. Invariant: a domain result has no pulled predicates.
     */
    record Unnested(LogicalPlan plan, List<Expr> pulled, boolean domain) {
    }

    private final LogicalPlan outer;
    private final long scope; // the outer references to unnest are those of this scope
    private final Set<String> correlated; // the outer input's columns the subquery reads
    private final String domainPrefix;
    private int numberings; // row_number() columns made so far, for fresh names

    /**
     * @param outer      the outer input (the domain is computed from it)
     * @param scope      the scope whose {@link OuterColumn}s read {@code outer}
     * @param correlated the outer columns the subquery reads, by name
     * @param usedNames  every column name of the outer input and of the subquery's nodes, so the
     *                   domain's columns get names none of them has
     */
    SubqueryUnnesting(LogicalPlan outer, long scope, Set<String> correlated, Set<String> usedNames) {
        this.outer = outer;
        this.scope = scope;
        this.correlated = new LinkedHashSet<>(correlated);
        int n = 1;
        while (prefixUsed("__d" + n + "_", usedNames)) {
            n++;
        }
        this.domainPrefix = "__d" + n + "_";
    }

    private static boolean prefixUsed(String prefix, Set<String> names) {
        for (String name : names) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** The outer columns, in a fixed order: the domain's columns follow it. */
    List<String> correlatedColumns() {
        return List.copyOf(correlated);
    }

    /** The name of outer column {@code c}'s copy in domain copy {@code copy} (0 is the one carried up). */
    String domainColumn(String c, int copy) {
        int i = correlatedColumns().indexOf(c);
        return domainPrefix + copy + "." + SubqueryAlias.unqualified(c) + "_" + i;
    }

    /** The domain: the distinct correlated values of the outer input, as copy {@code copy}'s columns. */
    LogicalPlan domain(int copy) {
        List<Expr> columns = new ArrayList<>();
        List<Expr> keys = new ArrayList<>();
        for (String c : correlated) {
            columns.add(new Alias(new Column(c), domainColumn(c, copy)));
            keys.add(new Column(domainColumn(c, copy)));
        }
        return new Aggregate(new Projection(outer, columns), keys, List.of());
    }

    /** Whether {@code e} reads one of the correlated outer columns (not looking into nested plans). */
    boolean readsOuter(Expr e) {
        if (e instanceof OuterColumn o) {
            return ours(o);
        }
        for (Expr child : e.children()) {
            if (readsOuter(child)) {
                return true;
            }
        }
        return false;
    }

    /** Whether some node of {@code plan}, or a plan nested in its expressions, reads a correlated column. */
    boolean isCorrelated(LogicalPlan plan) {
        return PlanRewrites.anyNode(plan, node -> node.expressions().stream().anyMatch(this::readsOuter));
    }

    /** {@code e} with each correlated outer column read from domain copy 0's column instead. */
    Expr fromDomain(Expr e) {
        return Exprs.transformUp(e, x -> x instanceof OuterColumn o && ours(o)
                ? new Column(domainColumn(o.name(), 0)) : x);
    }

    /** Whether {@code o} reads the outer input (rather than a query further out). */
    private boolean ours(OuterColumn o) {
        return o.scope() == scope && correlated.contains(o.name());
    }

    /** Unnests {@code plan}; see the class comment. */
    Unnested unnest(LogicalPlan plan) {
        if (!isCorrelated(plan)) {
            return new Unnested(plan, List.of(), false);
        }
        for (Expr e : plan.expressions()) {
            for (SubqueryExpr s : SubqueryExpr.in(e)) {
                if (isCorrelated(s.subquery())) {
                    throw new Unsupported("a nested subquery that could not be unnested reads an outer column");
                }
            }
        }
        if (plan instanceof Filter f) {
            return filter(f);
        }
        if (plan instanceof Projection p) {
            return projection(p);
        }
        if (plan instanceof SubqueryAlias a) {
            return alias(a);
        }
        if (plan instanceof Aggregate a) {
            return aggregate(a);
        }
        if (plan instanceof Join j) {
            return join(j);
        }
        if (plan instanceof Sort s && s.fetch() == Sort.ALL) {
            return unnest(s.input());
        }
        if (plan instanceof Union u) {
            return union(u);
        }
        if (plan instanceof Limit l) {
            return limit(l.input(), l.offset(), l.fetch());
        }
        if (plan instanceof Sort s) {
            return limit(new Sort(s.input(), s.keys()), 0, s.fetch());
        }
        if (plan instanceof Window w) {
            return window(w);
        }
        throw new Unsupported("correlation under " + plan.describe());
    }

    private Unnested filter(Filter f) {
        Unnested u = unnest(f.input());
        List<Expr> kept = new ArrayList<>();
        List<Expr> pulled = new ArrayList<>(u.pulled());
        for (Expr c : Exprs.conjuncts(f.predicate())) {
            if (!readsOuter(c)) {
                kept.add(c);
            } else if (u.domain()) {
                kept.add(fromDomain(c));
            } else {
                pulled.add(c);
            }
        }
        LogicalPlan plan = kept.isEmpty() ? u.plan() : new Filter(u.plan(), Exprs.and(kept));
        return new Unnested(plan, pulled, u.domain());
    }

    /**
     * The result with the domain joined in: the pulled predicates become a filter over the domain
     * crossed with the plan (later rules make its equalities join keys).
     */
    Unnested toDomain(Unnested u) {
        if (u.domain()) {
            return u;
        }
        LogicalPlan crossed = Join.cross(domain(0), u.plan());
        List<Expr> predicates = new ArrayList<>();
        for (Expr p : u.pulled()) {
            predicates.add(fromDomain(p));
        }
        LogicalPlan plan = predicates.isEmpty() ? crossed : new Filter(crossed, Exprs.and(predicates));
        return new Unnested(plan, List.of(), true);
    }

    /** The columns a parent must let through: those the pulled predicates read, and the domain's. */
    private Set<String> carried(Unnested u) {
        Set<String> out = new LinkedHashSet<>();
        for (Expr p : u.pulled()) {
            out.addAll(Exprs.columns(p));
        }
        if (u.domain()) {
            for (String c : correlated) {
                out.add(domainColumn(c, 0));
            }
        }
        return out;
    }

    private Unnested projection(Projection p) {
        Unnested u = unnest(p.input());
        boolean outerInExprs = p.exprs().stream().anyMatch(this::readsOuter);
        if (outerInExprs) {
            u = toDomain(u);
        }
        List<Expr> exprs = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Expr e : p.exprs()) {
            Expr r = outerInExprs ? PlanRewrites.named(fromDomain(e), e.name()) : e;
            exprs.add(r);
            names.add(r.name());
        }
        return passThrough(u, exprs, names);
    }

    /**
     * A projection of {@code exprs} over {@code u}'s plan that also outputs the columns {@code u}
     * carries; one whose name an output already has under another meaning is renamed, and the
     * pulled predicates follow.
     */
    private Unnested passThrough(Unnested u, List<Expr> exprs, Set<String> names) {
        Map<String, String> renamed = new LinkedHashMap<>();
        for (String c : carried(u)) {
            if (exprs.contains(new Column(c))) {
                continue;
            }
            String name = c;
            for (int i = 2; names.contains(name); i++) {
                name = c + "_" + i;
            }
            if (u.domain() && !name.equals(c)) {
                throw new Unsupported("a subquery output is named like a domain column: " + c);
            }
            names.add(name);
            exprs.add(PlanRewrites.named(new Column(c), name));
            if (!name.equals(c)) {
                renamed.put(c, name);
            }
        }
        List<Expr> pulled = new ArrayList<>();
        for (Expr e : u.pulled()) {
            pulled.add(renamed.isEmpty() ? e
                    : PlanRewrites.replaceColumns(e, c -> renamed.containsKey(c.column()) ? new Column(renamed.get(c.column())) : c));
        }
        return new Unnested(new Projection(u.plan(), exprs), pulled, u.domain());
    }

    /** An alias over a correlated input becomes a renaming projection that lets the carried columns through. */
    private Unnested alias(SubqueryAlias a) {
        Unnested u = unnest(a.input());
        List<Expr> exprs = new ArrayList<>();
        Set<String> names = new HashSet<>();
        Schema in = a.input().schema();
        for (int i = 0; i < in.size(); i++) {
            String name = a.schema().field(i).name();
            exprs.add(PlanRewrites.named(new Column(in.field(i).name()), name));
            names.add(name);
        }
        return passThrough(u, exprs, names);
    }

    private Unnested aggregate(Aggregate a) {
        Unnested u = unnest(a.input());
        boolean outerInExprs = a.groupBy().stream().anyMatch(this::readsOuter)
                || a.aggregates().stream().anyMatch(this::readsOuter);
        if (!outerInExprs && !u.domain() && !a.groupBy().isEmpty() && allEquiKeys(u.pulled())) {
            Grouped g = groupByKeys(u, a.groupBy(), a.aggregates());
            return new Unnested(g.plan(), g.pulled(), false);
        }
        u = toDomain(u);
        List<Expr> groupBy = new ArrayList<>();
        for (String c : correlated) {
            groupBy.add(new Column(domainColumn(c, 0)));
        }
        for (Expr g : a.groupBy()) {
            groupBy.add(PlanRewrites.named(fromDomain(g), g.name()));
        }
        List<Expr> aggregates = new ArrayList<>();
        for (Expr e : a.aggregates()) {
            aggregates.add(PlanRewrites.named(fromDomain(e), e.name()));
        }
        Aggregate grouped = new Aggregate(u.plan(), groupBy, aggregates);
        if (!a.groupBy().isEmpty()) {
            return new Unnested(grouped, List.of(), true);
        }
        return new Unnested(everyDomainValue(grouped, a.aggregates()), List.of(), true);
    }

    /**
     * A global aggregate computed per domain value yields no row for a value without input rows,
     * where the aggregate yields one (count 0, other aggregates NULL): the domain left-joined with
     * it (NULL-safely) restores those rows.
     */
    private LogicalPlan everyDomainValue(Aggregate grouped, List<Expr> aggregates) {
        LogicalPlan domain = domain(1);
        List<Expr> leftKeys = new ArrayList<>();
        List<Expr> rightKeys = new ArrayList<>();
        for (String c : correlated) {
            nullSafeKeys(new Column(domainColumn(c, 1)), new Column(domainColumn(c, 0)),
                    outer.schema().field(outer.schema().indexOf(c)).type(), leftKeys, rightKeys);
        }
        Join join = new Join(domain, grouped, JoinType.LEFT, leftKeys, rightKeys, null);
        List<Expr> exprs = new ArrayList<>();
        for (String c : correlated) {
            exprs.add(new Alias(new Column(domainColumn(c, 1)), domainColumn(c, 0)));
        }
        for (Expr a : aggregates) {
            exprs.add(PlanRewrites.named(overNoRows(a, new Column(a.name())), a.name()));
        }
        return new Projection(join, exprs);
    }

    /** {@code column} (aggregate {@code a}'s value after a left join): a count missing its group is 0. */
    static Expr overNoRows(Expr a, Column column) {
        AggregateFunction f = ((AggregateCall) Exprs.unalias(a)).function();
        if (f != AggregateFunction.COUNT && f != AggregateFunction.COUNT_STAR) {
            return column;
        }
        return new Case(List.of(new Unary(Unary.Op.IS_NULL, column)), List.of(Literal.of(0L)), column);
    }

    /**
     * Adds keys making {@code left} and {@code right} match when equal or both NULL: a join key
     * never matches NULL, so each value is keyed as (value with NULL replaced by a constant, is NULL).
     */
    static void nullSafeKeys(Expr left, Expr right, DataType type, List<Expr> leftKeys, List<Expr> rightKeys) {
        if (type.kind() == DataType.Kind.NULL) {
            leftKeys.add(new Unary(Unary.Op.IS_NULL, left));
            rightKeys.add(new Unary(Unary.Op.IS_NULL, right));
            return;
        }
        Literal zero = switch (type.kind()) {
            case BOOL -> Literal.of(false);
            case FLOAT64 -> Literal.of(0.0);
            case UTF8 -> Literal.of("");
            default -> new Literal(0L, type);
        };
        leftKeys.add(new Case(List.of(new Unary(Unary.Op.IS_NULL, left)), List.of(zero), left));
        rightKeys.add(new Case(List.of(new Unary(Unary.Op.IS_NULL, right)), List.of(zero), right));
        leftKeys.add(new Unary(Unary.Op.IS_NULL, left));
        rightKeys.add(new Unary(Unary.Op.IS_NULL, right));
    }

    /** An aggregate grouped also by the inner sides of pulled equalities, which now read its output. */
    record Grouped(Aggregate plan, List<Expr> pulled, List<Column> keys) {
    }

    /** Equalities inner = outer pass an aggregate as extra grouping keys (the pulled predicates must all be such). */
    Grouped groupByKeys(Unnested u, List<Expr> groupBy, List<Expr> aggregates) {
        List<Expr> keys = new ArrayList<>(groupBy);
        List<Expr> pulled = new ArrayList<>();
        List<Column> keyColumns = new ArrayList<>();
        for (Expr p : u.pulled()) {
            Expr[] key = equiKey(p);
            Expr inner = Exprs.unalias(key[1]);
            if (!keys.contains(inner)) {
                keys.add(inner);
            }
            Column column = new Column(inner.name());
            keyColumns.add(column);
            pulled.add(new Binary(BinaryOp.EQ, key[0], column));
        }
        return new Grouped(new Aggregate(u.plan(), keys, aggregates), pulled, keyColumns);
    }

    boolean allEquiKeys(List<Expr> pulled) {
        for (Expr p : pulled) {
            if (equiKey(p) == null) {
                return false;
            }
        }
        return true;
    }

    /**
     * A pulled equality {@code outer-expr = inner-expr} (either order) as {@code [outer side, inner
     * side]}: the outer side reads correlated outer columns and no inner column, the inner side the
     * reverse. Null for any other predicate.
     */
    Expr[] equiKey(Expr p) {
        if (p instanceof Binary b && b.op() == BinaryOp.EQ) {
            if (outerSide(b.left()) && innerSide(b.right())) {
                return new Expr[] {b.left(), b.right()};
            }
            if (innerSide(b.left()) && outerSide(b.right())) {
                return new Expr[] {b.right(), b.left()};
            }
        }
        return null;
    }

    private boolean outerSide(Expr e) {
        return readsOuter(e) && Exprs.columns(e).isEmpty() && SubqueryExpr.in(e).isEmpty();
    }

    private boolean innerSide(Expr e) {
        return !readsOuter(e) && !Exprs.columns(e).isEmpty() && SubqueryExpr.in(e).isEmpty();
    }

    /** Correlated outer columns become plain columns: {@code e} now reads the new join's left input. */
    Expr toOuterInput(Expr e) {
        return Exprs.transformUp(e, x -> x instanceof OuterColumn o && ours(o) ? new Column(o.name()) : x);
    }

    private Unnested join(Join j) {
        boolean conditionCorrelated = j.expressions().stream().anyMatch(this::readsOuter);
        boolean leftCorrelated = isCorrelated(j.left());
        boolean rightCorrelated = isCorrelated(j.right());
        JoinType type = j.type();
        boolean leftPreserving = type != JoinType.RIGHT && type != JoinType.FULL;
        if (!leftPreserving) {
            return rightOrFullJoin(j);
        }
        if (type == JoinType.LEFT_ANTI_NULL_AWARE && isCorrelated(j.right())) {
            throw new Unsupported("a correlated NOT IN under a NULL-aware anti join");
        }
        if (j.rightKeys().stream().anyMatch(this::readsOuter)) {
            throw new Unsupported("an outer reference in a join's right key");
        }
        Unnested left = unnest(j.left());
        if (type == JoinType.INNER && !conditionCorrelated && !left.domain()) {
            Unnested right = unnest(j.right());
            if (!right.domain()) {
                // Predicates of either input pass an inner join.
                right = renamedApart(right, left.plan().schema().names());
                left = renamedApart(left, right.plan().schema().names());
                List<Expr> pulled = new ArrayList<>(left.pulled());
                pulled.addAll(right.pulled());
                return new Unnested(new Join(left.plan(), right.plan(), type, j.leftKeys(), j.rightKeys(), j.filter(),
                        j.mark()), pulled, false);
            }
        }
        if (!rightCorrelated && !conditionCorrelated && !left.domain()) {
            left = renamedApart(left, j.right().schema().names());
        }
        if (!rightCorrelated && !conditionCorrelated) {
            // Left-preserving joins keep the left's predicates and domain columns.
            return new Unnested(new Join(left.plan(), j.right(), type, j.leftKeys(), j.rightKeys(), j.filter(),
                    j.mark()), left.pulled(), left.domain());
        }
        // Correlation in the right input or the condition: the domain on the left, and a second copy
        // on the right matched to it (NULL-safely), so each right row meets only its outer value's rows.
        left = toDomain(left);
        LogicalPlan leftPlan = withDomain(left.plan(), j.left().schema(), 0);
        List<Expr> leftKeys = new ArrayList<>();
        List<Expr> rightKeys = new ArrayList<>();
        for (Expr k : j.leftKeys()) {
            leftKeys.add(fromDomain(k));
        }
        LogicalPlan right = j.right();
        Expr filter = j.filter() == null ? null : fromDomain(j.filter());
        if (rightCorrelated) {
            Unnested r = toDomain(unnest(j.right()));
            right = withDomain(r.plan(), j.right().schema(), 2);
            for (String c : correlated) {
                nullSafeKeys(new Column(domainColumn(c, 0)), new Column(domainColumn(c, 2)),
                        outer.schema().field(outer.schema().indexOf(c)).type(), leftKeys, rightKeys);
            }
        }
        List<Expr> allRightKeys = new ArrayList<>();
        for (Expr k : j.rightKeys()) {
            allRightKeys.add(fromDomain(k));
        }
        allRightKeys.addAll(rightKeys);
        JoinMark mark = j.mark() == null ? null : new JoinMark(j.mark().column(), fromDomain(j.mark().condition()));
        return new Unnested(new Join(leftPlan, right, type, leftKeys, allRightKeys, filter, mark), List.of(), true);
    }

    /**
     * {@code u} (without a domain) with each column it carries for its pulled predicates that is
     * also named in {@code taken} renamed apart, the predicates following: two inputs of a join
     * may both carry a column of one name (say the same correlated table read in both).
     */
    private Unnested renamedApart(Unnested u, List<String> taken) {
        Set<String> names = new HashSet<>(u.plan().schema().names());
        names.addAll(taken);
        Map<String, String> renamed = new LinkedHashMap<>();
        for (String c : carried(u)) {
            if (taken.contains(c)) {
                String name = c;
                for (int i = 2; names.contains(name); i++) {
                    name = c + "_" + i;
                }
                names.add(name);
                renamed.put(c, name);
            }
        }
        if (renamed.isEmpty()) {
            return u;
        }
        List<Expr> exprs = new ArrayList<>();
        for (String c : u.plan().schema().names()) {
            exprs.add(PlanRewrites.named(new Column(c), renamed.getOrDefault(c, c)));
        }
        List<Expr> pulled = new ArrayList<>();
        for (Expr e : u.pulled()) {
            pulled.add(PlanRewrites.replaceColumns(e, c -> renamed.containsKey(c.column()) ? new Column(renamed.get(c.column())) : c));
        }
        return new Unnested(new Projection(u.plan(), exprs), pulled, false);
    }

    /**
     * A domain result cut to {@code original}'s columns plus the domain's, these renamed to copy
     * {@code copy}'s names (0 keeps them): what a join input with the domain outputs, so that
     * columns carried up from deeper levels cannot clash with the other input's.
     */
    private LogicalPlan withDomain(LogicalPlan plan, Schema original, int copy) {
        List<Expr> exprs = new ArrayList<>();
        for (Field f : original.fields()) {
            exprs.add(new Column(f.name()));
        }
        for (String c : correlated) {
            exprs.add(PlanRewrites.named(new Column(domainColumn(c, 0)), domainColumn(c, copy)));
        }
        return new Projection(plan, exprs);
    }

    /**
     * The keys that tell one outer value's rows apart, for a node that must see them apart (a
     * limit, a window): when the correlation is pulled-up equalities {@code inner = outer}, their
     * inner sides (the rows of outer value {@code o} are exactly one group of them, rows whose
     * key is NULL match no outer row); otherwise, or when {@code forceDomain}, the domain's
     * columns, the domain joined in. Returns the result to build on and sets {@code keys}.
     */
    private Unnested separated(Unnested u, boolean forceDomain, List<Expr> keys) {
        if (!forceDomain && !u.domain() && !u.pulled().isEmpty() && allEquiKeys(u.pulled())) {
            for (Expr p : u.pulled()) {
                Expr inner = Exprs.unalias(equiKey(p)[1]);
                if (!keys.contains(inner)) {
                    keys.add(inner);
                }
            }
            return u;
        }
        Unnested d = toDomain(u);
        for (String c : correlated) {
            keys.add(new Column(domainColumn(c, 0)));
        }
        return d;
    }

    /**
     * {@code LIMIT fetch OFFSET offset} over {@code input}, a correlated input: the limit holds per
     * outer value, so it becomes a {@code row_number()} per outer value (see {@link #separated}),
     * ordered by the ORDER BY below the limit if any, and a filter keeping the numbers in
     * {@code (offset, offset + fetch]}, as DuckDB unnests it. A projection or alias between the
     * limit and the sort is row by row, so the limit moves below it first.
     */
    private Unnested limit(LogicalPlan input, long offset, long fetch) {
        if (input instanceof Projection p) {
            return projection(new Projection(new Limit(p.input(), offset, fetch), p.exprs()));
        }
        if (input instanceof SubqueryAlias a) {
            return alias(new SubqueryAlias(new Limit(a.input(), offset, fetch), a.alias()));
        }
        long last = offset + fetch < offset ? Long.MAX_VALUE : offset + fetch; // overflow: no upper bound
        List<SortKey> order = List.of();
        LogicalPlan body = input;
        if (input instanceof Sort s) {
            order = s.keys();
            body = s.input();
            if (s.fetch() != Sort.ALL) {
                last = Math.min(last, s.fetch());
            }
        } else if (input instanceof Limit l) {
            // LIMIT over LIMIT: the outer one numbers the inner one's rows
            Unnested inner = limit(l.input(), l.offset(), l.fetch());
            return numbered(inner, List.of(), offset, last);
        }
        boolean outerInOrder = order.stream().anyMatch(k -> readsOuter(k.expr()));
        Unnested u = unnest(body);
        if (outerInOrder) {
            u = toDomain(u);
            List<SortKey> keys = new ArrayList<>();
            for (SortKey k : order) {
                keys.add(new SortKey(fromDomain(k.expr()), k.ascending(), k.nullsFirst()));
            }
            order = keys;
        }
        return numbered(u, order, offset, last);
    }

    /** The rows of {@code u} numbered per outer value in {@code order}, those numbered in (first, last] kept. */
    private Unnested numbered(Unnested u, List<SortKey> order, long first, long last) {
        List<Expr> partition = new ArrayList<>();
        u = separated(u, false, partition);
        String rn = domainPrefix + "rn" + (++numberings);
        Schema schema = u.plan().schema();
        Window w = new Window(u.plan(), List.of(new Alias(
                new WindowCall(WindowFunction.ROW_NUMBER, List.of(), partition, order, WindowCall.defaultFrame(order)), rn)));
        List<Expr> bounds = new ArrayList<>();
        if (first > 0) {
            bounds.add(new Binary(BinaryOp.GT, new Column(rn), Literal.of(first)));
        }
        if (last != Long.MAX_VALUE) {
            bounds.add(new Binary(BinaryOp.LT_EQ, new Column(rn), Literal.of(last)));
        }
        LogicalPlan kept = bounds.isEmpty() ? w : new Filter(w, Exprs.and(bounds));
        List<Expr> columns = new ArrayList<>();
        for (Field f : schema.fields()) {
            columns.add(new Column(f.name()));
        }
        return new Unnested(new Projection(kept, columns), u.pulled(), u.domain());
    }

    /**
     * A window over a correlated input: each outer value's rows form their own partitions (the
     * window's PARTITION BY gets the keys of {@link #separated} first); outer references in the
     * window's arguments, partitioning or order read the domain.
     */
    private Unnested window(Window w) {
        boolean outerInExprs = w.windowExprs().stream().anyMatch(this::readsOuter);
        List<Expr> keys = new ArrayList<>();
        Unnested u = separated(unnest(w.input()), outerInExprs, keys);
        List<Expr> exprs = new ArrayList<>();
        for (Expr e : w.windowExprs()) {
            WindowCall c = (WindowCall) Exprs.unalias(fromDomain(e));
            List<Expr> partition = new ArrayList<>(keys);
            partition.addAll(c.partitionBy());
            exprs.add(PlanRewrites.named(
                    new WindowCall(c.function(), c.arguments(), partition, c.orderBy(), c.frame(), c.ignoreNulls()),
                    e.name()));
        }
        return new Unnested(new Window(u.plan(), exprs), u.pulled(), u.domain());
    }

    /**
     * A right or full join with correlation anywhere in it: each input with the domain (an
     * uncorrelated input crossed with it, so each outer value gets its own copy) and the two matched
     * on it NULL-safely, so no row meets another outer value's rows and each unmatched row keeps
     * its own outer value; the domain carried up is the right copy's for a right join (every row
     * has a right side) and the present side's for a full join (both copies agree when both are
     * present, and an absent side's copy is all NULL).
     */
    private Unnested rightOrFullJoin(Join j) {
        LogicalPlan left = withDomain(toDomain(unnest(j.left())).plan(), j.left().schema(), 0);
        LogicalPlan right = withDomain(toDomain(unnest(j.right())).plan(), j.right().schema(), 2);
        List<Expr> leftKeys = new ArrayList<>();
        List<Expr> rightKeys = new ArrayList<>();
        for (Expr k : j.leftKeys()) {
            leftKeys.add(fromDomain(k));
        }
        for (Expr k : j.rightKeys()) {
            rightKeys.add(fromDomain(k));
        }
        for (String c : correlated) {
            nullSafeKeys(new Column(domainColumn(c, 0)), new Column(domainColumn(c, 2)),
                    outer.schema().field(outer.schema().indexOf(c)).type(), leftKeys, rightKeys);
        }
        Expr filter = j.filter() == null ? null : fromDomain(j.filter());
        Join join = new Join(left, right, j.type(), leftKeys, rightKeys, filter, j.mark());
        List<Expr> exprs = new ArrayList<>();
        for (Field f : j.schema().fields()) {
            exprs.add(new Column(f.name()));
        }
        for (String c : correlated) {
            Column d0 = new Column(domainColumn(c, 0));
            Column d2 = new Column(domainColumn(c, 2));
            Expr d = j.type() == JoinType.RIGHT ? d2 : new Case(List.of(new Unary(Unary.Op.IS_NULL, d0)), List.of(d2), d0);
            exprs.add(PlanRewrites.named(d, domainColumn(c, 0)));
        }
        return new Unnested(new Projection(join, exprs), List.of(), true);
    }

    /** A union of correlated inputs: each input with the domain, its columns first, the rest in order. */
    private Unnested union(Union u) {
        List<LogicalPlan> inputs = new ArrayList<>();
        for (LogicalPlan input : u.inputs()) {
            inputs.add(withDomain(toDomain(unnest(input)).plan(), input.schema(), 0));
        }
        // The union takes the first input's names: restore the original ones, then the domain's.
        LogicalPlan union = new Union(inputs);
        List<Expr> exprs = new ArrayList<>();
        Schema unioned = union.schema();
        int n = u.schema().size();
        for (int i = 0; i < unioned.size(); i++) {
            String want = i < n ? u.schema().field(i).name() : domainColumn(correlatedColumns().get(i - n), 0);
            exprs.add(PlanRewrites.named(new Column(unioned.field(i).name()), want));
        }
        return new Unnested(new Projection(union, exprs), List.of(), true);
    }

    /** Every column name of {@code plan}'s nodes, nested plans included: what fresh names must avoid. */
    static Set<String> allNames(LogicalPlan plan) {
        Set<String> out = new HashSet<>();
        PlanRewrites.forEachNode(plan, node -> out.addAll(node.schema().names()));
        return out;
    }

}
