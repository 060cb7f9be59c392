package io.sluice.logical.expr;

/**
 * A user-defined scalar function, called once per row. Implement it in a public class with a
 * public no-argument constructor: the class travels by name (never as Kryo bytes) and each task
 * makes its own instance, from the job's jar when it came with one ({@link UserJar}). Arguments
 * arrive as {@code QueryResult} gives values (Long, Integer, Double, Boolean, String, BigDecimal,
 * LocalDate, or null); return a Long, Integer, Double, Boolean or String of the declared type, or null.
 */
public interface UserFunction {
    Object call(Object[] args);
}
