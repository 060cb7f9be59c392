package io.sluice.optimizer.logical;

import org.junit.jupiter.api.Test;

class ScratchPrintTest {
    @Test
    void print() throws Exception {
        String[] queries = java.nio.file.Files.readAllLines(java.nio.file.Path.of("/tmp/h-decor-scratch/q.txt")).toArray(String[]::new);
        DecorrelateSubqueries rule = new DecorrelateSubqueries();
        StringBuilder out = new StringBuilder();
        for (String q : queries) {
            if (q.isBlank()) continue;
            out.append("== ").append(q).append('\n');
            try {
                var p = RuleTesting.sql(q);
                var r = rule.apply(p);
                out.append(r.explain());
                var r2 = rule.apply(r);
                out.append(r2 == r ? "(fixed point)\n" : "(NOT FIXED)\n");
                var all = LogicalOptimizer.standard().optimize(p);
                out.append("-- optimized:\n").append(all.explain());
            } catch (Throwable t) {
                out.append("ERROR ").append(t).append('\n');
                for (var e : t.getStackTrace()) { if (e.getClassName().contains("sluice")) out.append("   at ").append(e).append('\n'); }
            }
        }
        java.nio.file.Files.writeString(java.nio.file.Path.of("/tmp/h-decor-scratch/out.txt"), out);
    }
}
