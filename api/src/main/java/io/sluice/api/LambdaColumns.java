package io.sluice.api;

import io.sluice.logical.expr.Lambda;
import io.sluice.logical.expr.LambdaVariable;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Java lambdas as lambda functions of the higher-order functions ({@link Functions#transform} and
 * friends): the Java lambda is called once, on variables, and what it builds is the body. Variables
 * get names unique in the JVM ({@code x_1}, ...), as Spark's clients name them, so a nested
 * lambda never hides an enclosing one's variable.
 */
final class LambdaColumns {
    private static final AtomicLong NEXT = new AtomicLong();

    private LambdaColumns() {
    }

    static Column of(Function<Column, Column> f) {
        String x = fresh("x");
        return new Column(new Lambda(List.of(x), f.apply(variable(x)).expr()));
    }

    static Column of(BiFunction<Column, Column, Column> f) {
        String x = fresh("x");
        String y = fresh("y");
        return new Column(new Lambda(List.of(x, y), f.apply(variable(x), variable(y)).expr()));
    }

    private static String fresh(String prefix) {
        return prefix + "_" + NEXT.incrementAndGet();
    }

    private static Column variable(String name) {
        return new Column(new LambdaVariable(name));
    }
}
