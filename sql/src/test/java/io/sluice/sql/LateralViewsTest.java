package io.sluice.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import org.junit.jupiter.api.Test;

class LateralViewsTest {
    @Test
    void lateralViewsBecomeUnnestJoins() {
        assertThat(LateralViews.rewrite("SELECT id, x FROM t LATERAL VIEW explode(f(xs, ')')) v AS x WHERE x > 1"))
                .isEqualTo("SELECT id, x FROM t CROSS JOIN UNNEST(f(xs, ')')) AS v(x) WHERE x > 1");
        assertThat(LateralViews.rewrite("SELECT * FROM t lateral view outer EXPLODE(m) v k, w lateral view explode(ys) u"))
                .isEqualTo("SELECT * FROM t LEFT JOIN UNNEST(m) AS v(k, w) ON TRUE CROSS JOIN UNNEST(ys) AS u");
        assertThat(LateralViews.rewrite("SELECT * FROM t LATERAL VIEW explode_outer(xs) v GROUP BY 1"))
                .isEqualTo("SELECT * FROM t LEFT JOIN UNNEST(xs) AS v ON TRUE GROUP BY 1");
        assertThat(LateralViews.rewrite("SELECT * FROM t LATERAL VIEW POSEXPLODE(xs) v AS p, x LATERAL VIEW inline_outer(ls) u"))
                .isEqualTo("SELECT * FROM t CROSS JOIN UNNEST(posexplode(xs)) AS v(p, x) LEFT JOIN UNNEST(inline(ls)) AS u ON TRUE");
    }

    @Test
    void quotedTextAndOtherStatementsStayAsWritten() {
        String sql = "SELECT 'LATERAL VIEW explode(x) t' AS \"lateral view\" FROM t";
        assertThat(LateralViews.rewrite(sql)).isSameAs(sql);
    }

    @Test
    void otherGeneratorsAndMissingAliasesAreRefused() {
        assertThatThrownBy(() -> LateralViews.rewrite("SELECT * FROM t LATERAL VIEW json_tuple(js, 'a') v"))
                .isInstanceOf(SluiceException.class).hasMessageContaining("not 'json_tuple'");
        assertThatThrownBy(() -> LateralViews.rewrite("SELECT * FROM t LATERAL VIEW explode(xs) WHERE true"))
                .isInstanceOf(SluiceException.class).hasMessageContaining("needs a table alias");
    }
}
