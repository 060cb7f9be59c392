package io.sluice.operators;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.SortKey;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class PartitioningTest {
    static final Expr A = new Column("a");
    static final Expr B = new Column("b");
    static final Expr X = new Column("x");
    static final Expr Y = new Column("y");

    static Partitioning.Range range(String id, int n, SortKey... keys) {
        return new Partitioning.Range(List.of(keys), SplitPoints.unresolved(id), n);
    }

    @Test
    void onlyBroadcastSatisfiesBroadcast() {
        Distribution bc = Distribution.BROADCAST;
        assertThat(new Partitioning.Broadcast().satisfies(bc)).isTrue();
        assertThat(new Partitioning.Broadcast().satisfies(Distribution.UNSPECIFIED)).isTrue();
        assertThat(new Partitioning.Broadcast().satisfies(new Distribution.KeyPartitioned(List.of(A)))).isFalse();
        assertThat(new Partitioning.Broadcast().partitionCount()).isEqualTo(1);
        // One partition satisfies everything else, but a broadcast consumer reads every partition index.
        for (Partitioning p : List.of(new Partitioning.Single(), new Partitioning.Unknown(1),
                new Partitioning.RoundRobin(1), new Partitioning.Hash(List.of(A), 1), range("s", 1, SortKey.asc(A)))) {
            assertThat(p.satisfies(bc)).as("%s", p).isFalse();
            assertThat(p.satisfies(Distribution.SINGLE)).as("%s", p).isTrue();
            assertThat(p.satisfies(new Distribution.RangePartitioned(List.of(SortKey.asc(A))))).as("%s", p).isTrue();
        }
    }

    @Test
    void rangeSatisfiesRangeOnEqualOrLongerRequiredKeysAndKeyPartitioning() {
        Partitioning.Range onA = range("s1", 4, SortKey.asc(A));
        Partitioning.Range onAB = range("s2", 4, SortKey.asc(A), SortKey.asc(B));
        assertThat(onA.satisfies(new Distribution.RangePartitioned(List.of(SortKey.asc(A))))).isTrue();
        assertThat(onA.satisfies(new Distribution.RangePartitioned(List.of(SortKey.asc(A), SortKey.asc(B))))).isTrue();
        // Splitting on (a, b) may put one value of a in two partitions.
        assertThat(onAB.satisfies(new Distribution.RangePartitioned(List.of(SortKey.asc(A))))).isFalse();
        assertThat(onA.satisfies(new Distribution.RangePartitioned(List.of(SortKey.desc(A))))).isFalse();
        assertThat(onA.satisfies(new Distribution.KeyPartitioned(List.of(A, B)))).isTrue();
        assertThat(onAB.satisfies(new Distribution.KeyPartitioned(List.of(A)))).isFalse();
        assertThat(onA.satisfies(Distribution.SINGLE)).isFalse();
        assertThat(new Partitioning.Hash(List.of(A), 4).satisfies(
                new Distribution.RangePartitioned(List.of(SortKey.asc(A))))).isFalse();
    }

    @Test
    void rangeValidatesBoundaries() {
        Partitioning.Range r = range("s", 3, SortKey.asc(A));
        assertThat(r.withBoundaries(List.of(List.of(5L), List.of(9L))).splits().resolved()).isTrue();
        assertThat(r.withBoundaries(List.of(Arrays.asList((Object) null))).splits().boundaries().get(0))
                .containsExactly((Object) null);
        assertThatThrownBy(() -> r.withBoundaries(List.of(List.of(1L), List.of(2L), List.of(3L))))
                .hasMessageContaining("at most 2");
        assertThatThrownBy(() -> r.withBoundaries(List.of(List.of(1L, 2L))))
                .hasMessageContaining("2 values for 1 sort keys");
        assertThatThrownBy(() -> new SplitPoints("s", List.of(List.of(1))))
                .hasMessageContaining("is not a boundary value");
        assertThat(r.toString()).isEqualTo("range([a ASC NULLS LAST], s(unresolved), 3)");
    }

    @Test
    void compatibility() {
        Partitioning h1 = new Partitioning.Hash(List.of(A), 4);
        Partitioning h2 = new Partitioning.Hash(List.of(X), 4);
        assertThat(h1.compatibleWith(h2)).isTrue();
        assertThat(h1.compatibleWith(new Partitioning.Hash(List.of(X), 5))).isFalse();
        assertThat(h1.compatibleWith(new Partitioning.Hash(List.of(X, Y), 4))).isFalse();
        assertThat(h1.compatibleWith(new Partitioning.RoundRobin(4))).isFalse();
        assertThat(new Partitioning.Single().compatibleWith(new Partitioning.Unknown(1))).isTrue();
        assertThat(new Partitioning.Single().compatibleWith(new Partitioning.Broadcast())).isFalse();

        Partitioning.Range r1 = range("s", 4, SortKey.asc(A));
        Partitioning.Range r2 = range("s", 4, SortKey.asc(X));
        assertThat(r1.compatibleWith(r2)).isTrue();
        assertThat(r1.compatibleWith(range("other", 4, SortKey.asc(X)))).isFalse();
        assertThat(r1.compatibleWith(range("s", 3, SortKey.asc(X)))).isFalse();
        assertThat(r1.compatibleWith(range("s", 4, SortKey.desc(X)))).isFalse();
        assertThat(r1.withBoundaries(List.of(List.of(1L))).compatibleWith(r2.withBoundaries(List.of(List.of(1L)))))
                .isTrue();
        assertThat(r1.withBoundaries(List.of(List.of(1L))).compatibleWith(r2.withBoundaries(List.of(List.of(2L)))))
                .isFalse();

        // Join a = x and b = y: hash(a) pairs with hash(x), not with hash(y).
        List<Expr> left = List.of(A, B);
        List<Expr> right = List.of(X, Y);
        assertThat(Partitioning.coPartitioned(h1, left, h2, right)).isTrue();
        assertThat(Partitioning.coPartitioned(h1, left, new Partitioning.Hash(List.of(Y), 4), right)).isFalse();
        assertThat(Partitioning.coPartitioned(r1, left, r2, right)).isTrue();
        assertThat(Partitioning.coPartitioned(r1, left, range("s", 4, SortKey.asc(Y)), right)).isFalse();
    }
}
