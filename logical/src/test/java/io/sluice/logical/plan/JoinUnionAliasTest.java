package io.sluice.logical.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.TableSource;
import java.util.List;
import org.junit.jupiter.api.Test;

class JoinUnionAliasTest {
    private static final TableScan T = new TableScan(new TableSource("t", FileFormat.PARQUET, "/t", Schema.of(
            new Field("k", DataType.UTF8), new Field("v", DataType.INT64))));
    private static final TableScan U = new TableScan(new TableSource("u", FileFormat.CSV, "/u", Schema.of(
            new Field("k", DataType.UTF8), new Field("a", DataType.INT32), new Field("d", DataType.decimal(10, 2)))));

    private static Column col(String name) {
        return new Column(name);
    }

    @Test
    void innerJoinOutputsLeftThenRightQualifiedColumns() {
        Join join = new Join(new SubqueryAlias(T, "t"), new SubqueryAlias(U, "u"), JoinType.INNER,
                List.of(col("t.k"), col("v")), List.of(col("u.k"), col("a")),
                new Binary(BinaryOp.GT, col("t.v"), col("d")));
        assertThat(join.explain()).isEqualTo("""
                Join: INNER keys=[t.k = u.k, v = a] filter=(t.v > d)
                  SubqueryAlias: t
                    TableScan: t
                  SubqueryAlias: u
                    TableScan: u
                """);
        assertThat(join.schema().toString())
                .isEqualTo("[t.k: utf8, t.v: int64, u.k: utf8, u.a: int32, u.d: decimal(10,2)]");
        assertThat(join.schema().indexOf("a")).isEqualTo(3);
    }

    @Test
    void semiAndAntiJoinsOutputTheLeftOnly() {
        for (JoinType type : List.of(JoinType.LEFT_SEMI, JoinType.LEFT_ANTI, JoinType.LEFT_ANTI_NULL_AWARE)) {
            Join join = new Join(T, new SubqueryAlias(U, "u"), type, List.of(col("k")), List.of(col("u.k")), null);
            assertThat(join.schema().names()).containsExactly("k", "v");
        }
    }

    @Test
    void crossJoinIsAnInnerJoinWithoutCondition() {
        Join cross = Join.cross(new SubqueryAlias(T, "t"), new SubqueryAlias(U, "u"));
        assertThat(cross.isCross()).isTrue();
        assertThat(cross.describe()).isEqualTo("Join: CROSS");
        assertThat(cross.schema().size()).isEqualTo(5);
    }

    @Test
    void duplicateOutputNamesAreNamed() {
        assertThatThrownBy(() -> Join.cross(T, U)).isInstanceOf(SluiceException.class)
                .hasMessage("join output has two columns named 'k' (one from each side); alias the inputs so their"
                        + " names differ");
    }

    @Test
    void keysMustTypeOnTheirSideAndBeComparable() {
        SubqueryAlias u = new SubqueryAlias(U, "u");
        assertThatThrownBy(() -> new Join(T, u, JoinType.INNER, List.of(col("u.a")), List.of(col("u.a")), null))
                .isInstanceOf(SluiceException.class).hasMessageStartingWith("unknown column 'u.a'");
        assertThatThrownBy(() -> new Join(T, u, JoinType.LEFT, List.of(col("k")), List.of(col("u.a")), null))
                .isInstanceOf(SluiceException.class)
                .hasMessage("join keys k and u.a are not comparable: cannot compare utf8 with int32 using '='");
        assertThatThrownBy(() -> new Join(T, u, JoinType.INNER, List.of(col("k")), List.of(), null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Join(T, u, JoinType.INNER, List.of(), List.of(), col("v")))
                .isInstanceOf(SluiceException.class).hasMessage("join filter v must be boolean, not int64");
    }

    @Test
    void subqueryAliasRequalifiesColumns() {
        SubqueryAlias inner = new SubqueryAlias(T, "x");
        Projection p = new Projection(inner, List.of(col("x.k"), new Binary(BinaryOp.ADD, col("x.v"), Literal.of(1))));
        SubqueryAlias outer = new SubqueryAlias(p, "s");
        assertThat(outer.schema().names()).containsExactly("s.k", "s.(x.v + 1)");
        assertThat(outer.explain()).isEqualTo("""
                SubqueryAlias: s
                  Projection: x.k, (x.v + 1)
                    SubqueryAlias: x
                      TableScan: t
                """);
        assertThat(SubqueryAlias.unqualified("t.k")).isEqualTo("k");
        assertThat(SubqueryAlias.unqualified("k")).isEqualTo("k");
        assertThat(SubqueryAlias.unqualified("sum(t.v)")).isEqualTo("sum(t.v)");
    }

    @Test
    void subqueryAliasRejectsColumnsThatWouldCollide() {
        Join join = Join.cross(new SubqueryAlias(T, "t"), new SubqueryAlias(U, "u"));
        assertThatThrownBy(() -> new SubqueryAlias(join, "s")).isInstanceOf(SluiceException.class)
                .hasMessage("relation 's' would have two columns named 's.k'; give the columns of its input distinct names");
    }

    @Test
    void unionTakesFirstNamesAndWidenedTypes() {
        Projection left = new Projection(U, List.of(col("k"), col("a")));
        Union union = new Union(List.of(left, T));
        assertThat(union.schema().toString()).isEqualTo("[k: utf8, a: int64]");
        assertThat(Union.coerced(List.of(left, T)).explain()).isEqualTo("""
                Union: all
                  Projection: k, CAST(a AS int64) AS a
                    Projection: k, a
                      TableScan: u
                  TableScan: t
                """);
    }

    @Test
    void unionChecksArityAndTypes() {
        assertThatThrownBy(() -> new Union(List.of(T, U))).isInstanceOf(SluiceException.class)
                .hasMessage("UNION inputs must have the same number of columns: input 1 has 2, input 2 has 3");
        Projection swapped = new Projection(T, List.of(col("v"), col("k")));
        assertThatThrownBy(() -> new Union(List.of(T, swapped))).isInstanceOf(SluiceException.class)
                .hasMessage("UNION column 1 ('k') has incompatible types utf8 and int64 (input 2)");
        assertThatThrownBy(() -> new Union(List.of(T))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void emptyRelationKeepsTheSchema() {
        EmptyRelation empty = new EmptyRelation(T.schema());
        assertThat(empty.explain()).isEqualTo("EmptyRelation: k, v\n");
        assertThat(empty.schema()).isEqualTo(T.schema());
    }
}
