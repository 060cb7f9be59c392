package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TypeRules;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code CASE WHEN c1 THEN r1 ... ELSE e END}: each row takes the result of its first true
 * condition, else {@code otherwise} (a NULL literal when the query has no ELSE). Results widen to
 * one type: equal types stay, numbers widen (to float64 if any is, else to a decimal wide enough).
 *
 * <p>Vectorized (the bound form, {@code CaseExpr}): conditions run over the whole batch, and each
 * result branch over the whole batch only if some row picks it. A branch picked by some rows is therefore also computed for the
 * others, so a failing cast there fails the batch.
 */
public record Case(List<Expr> conditions, List<Expr> results, Expr otherwise) implements Expr {
    public Case {
        conditions = List.copyOf(conditions);
        results = List.copyOf(results);
        requireNonNull(otherwise, "otherwise is null");
        if (conditions.isEmpty() || conditions.size() != results.size()) {
            throw new IllegalArgumentException("CASE needs one result per condition and at least one WHEN");
        }
    }

    @Override
    public DataType type(Schema input) {
        for (Expr c : conditions) {
            TypeRules.checkBoolean("CASE condition " + c, c.type(input));
        }
        DataType out = otherwise.type(input);
        for (Expr r : results) {
            out = widen(out, r.type(input));
        }
        return out;
    }

    private static DataType widen(DataType a, DataType b) {
        DataType common = TypeRules.commonType(a, b);
        if (common == null) {
            throw new SluiceException("CASE results have incompatible types " + a + " and " + b);
        }
        return common;
    }

    @Override
    public List<Expr> children() {
        List<Expr> out = new ArrayList<>(conditions.size() * 2 + 1);
        for (int i = 0; i < conditions.size(); i++) {
            out.add(conditions.get(i));
            out.add(results.get(i));
        }
        out.add(otherwise);
        return out;
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        List<Expr> c = new ArrayList<>();
        List<Expr> r = new ArrayList<>();
        for (int i = 0; i + 1 < children.size(); i += 2) {
            c.add(children.get(i));
            r.add(children.get(i + 1));
        }
        return new Case(c, r, children.get(children.size() - 1));
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder("CASE");
        for (int i = 0; i < conditions.size(); i++) {
            out.append(" WHEN ").append(conditions.get(i)).append(" THEN ").append(results.get(i));
        }
        if (!(otherwise instanceof Literal l && l.value() == null)) {
            out.append(" ELSE ").append(otherwise);
        }
        return out.append(" END").toString();
    }

    /** False: a CASE only chooses; its conditions and branches are children and answer for themselves. */
    @Override
    public boolean mayFailItself() {
        return false;
    }
}
