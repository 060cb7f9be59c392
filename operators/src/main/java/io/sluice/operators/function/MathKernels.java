package io.sluice.operators.function;

import io.sluice.common.types.DataType;
import io.sluice.common.types.DataType.Kind;
import io.sluice.kernels.Col;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.SplittableRandom;

/** The math functions' kernels (see {@code MathFunctions} in module logical). */
final class MathKernels {
    private MathKernels() {
    }

    /** The kernel of {@code name}, or null when it is not a math function. */
    static FunctionKernel of(String name) {
        return switch (name) {
            case "pow", "sqrt", "cbrt", "exp", "ln", "log", "log10", "log2", "sign" -> (args, rows, type) -> doubles(name, args, rows);
            case "pmod" -> MathKernels::pmod;
            case "greatest", "least" -> (args, rows, type) -> extreme(args, rows, type, name.equals("greatest"));
            case "bround" -> MathKernels::bround;
            case "rand" -> new Rand();
            default -> null;
        };
    }

    private static Col doubles(String name, List<Col> args, int rows) {
        double[] x = Values.doubles(args.get(0)).doubles;
        double[] y = args.size() > 1 ? Values.doubles(args.get(1)).doubles : null;
        Col out = Col.allocate(DataType.FLOAT64, rows, true);
        double[] r = out.doubles;
        boolean[] nulls = out.nulls;
        for (int row = 0; row < rows; row++) {
            nulls[row] = Values.anyNull(args, row);
        }
        switch (name) {
            case "pow" -> {
                for (int row = 0; row < rows; row++) {
                    r[row] = Math.pow(x[row], y[row]);
                }
            }
            case "sqrt" -> {
                for (int row = 0; row < rows; row++) {
                    r[row] = Math.sqrt(x[row]);
                }
            }
            case "cbrt" -> {
                for (int row = 0; row < rows; row++) {
                    r[row] = Math.cbrt(x[row]);
                }
            }
            case "exp" -> {
                for (int row = 0; row < rows; row++) {
                    r[row] = Math.exp(x[row]);
                }
            }
            case "sign" -> {
                for (int row = 0; row < rows; row++) {
                    r[row] = Math.signum(x[row]);
                }
            }
            case "log" -> {
                if (y == null) {
                    logarithm(x, r, nulls, rows, 1.0);
                } else {
                    for (int row = 0; row < rows; row++) {
                        // log(base, x): NULL unless both are positive, as Spark
                        nulls[row] |= x[row] <= 0 || y[row] <= 0;
                        r[row] = Math.log(y[row]) / Math.log(x[row]);
                    }
                }
            }
            case "ln" -> logarithm(x, r, nulls, rows, 1.0);
            case "log10" -> {
                for (int row = 0; row < rows; row++) {
                    nulls[row] |= x[row] <= 0;
                    r[row] = Math.log10(x[row]);
                }
            }
            default -> logarithm(x, r, nulls, rows, Math.log(2)); // log2
        }
        return out;
    }

    /** The natural logarithm divided by {@code divisor}; NULL at or below 0. */
    private static void logarithm(double[] x, double[] r, boolean[] nulls, int rows, double divisor) {
        for (int row = 0; row < rows; row++) {
            nulls[row] |= x[row] <= 0;
            r[row] = Math.log(x[row]) / divisor;
        }
    }

    /** {@code a mod b} made positive: {@code ((a % b) + b) % b}; NULL when b is 0. */
    private static Col pmod(List<Col> args, int rows, DataType type) {
        Col a = Values.cast(args.get(0), type);
        Col b = Values.cast(args.get(1), type);
        Col out = Col.allocate(type, rows, true);
        for (int row = 0; row < rows; row++) {
            if (a.isNull(row) || b.isNull(row)) {
                out.nulls[row] = true;
            } else if (type.kind() == Kind.FLOAT64) {
                double m = b.doubles[row];
                out.nulls[row] = m == 0;
                double v = a.doubles[row] % m;
                out.doubles[row] = v < 0 ? (v + m) % m : v;
            } else {
                long m = b.longs[row];
                out.nulls[row] = m == 0;
                if (m != 0) {
                    long v = a.longs[row] % m;
                    out.longs[row] = v < 0 ? (v + m) % m : v;
                }
            }
        }
        return out;
    }

    /** The largest (or smallest) argument that is not NULL, each argument first cast to the common type. */
    private static Col extreme(List<Col> args, int rows, DataType type, boolean greatest) {
        Col out = Col.allocate(type, rows, true);
        java.util.Arrays.fill(out.nulls, true);
        int sign = greatest ? 1 : -1;
        for (Col arg : args) {
            Col c = Values.cast(arg, type);
            for (int row = 0; row < rows; row++) {
                if (c.isNull(row)) {
                    continue;
                }
                boolean take = out.nulls[row] || switch (type.kind()) {
                    case FLOAT64 -> sign * Double.compare(c.doubles[row], out.doubles[row]) > 0;
                    case UTF8 -> sign * c.strings[row].compareTo(out.strings[row]) > 0;
                    case BOOL -> sign * Boolean.compare(c.bools[row], out.bools[row]) > 0;
                    default -> sign * Long.compare(c.requireLongs("an argument of greatest() or least()")[row],
                            out.longs[row]) > 0;
                };
                if (take) {
                    out.nulls[row] = false;
                    switch (type.kind()) {
                        case FLOAT64 -> out.doubles[row] = c.doubles[row];
                        case UTF8 -> out.strings[row] = c.strings[row];
                        case BOOL -> out.bools[row] = c.bools[row];
                        default -> out.longs[row] = c.longs[row];
                    }
                }
            }
        }
        return out;
    }

    /** Half-to-even rounding to a constant number of decimal places. */
    private static Col bround(List<Col> args, int rows, DataType type) {
        Col x = args.get(0);
        int digits = args.size() > 1 && !args.get(1).isNull(0) ? (int) Values.longs(args.get(1)).longs[0] : 0;
        Col out = Col.allocate(type, rows, true);
        for (int row = 0; row < rows; row++) {
            if (Values.anyNull(args, row)) {
                out.nulls[row] = true;
                continue;
            }
            switch (type.kind()) {
                case FLOAT64 -> out.doubles[row] = Double.isFinite(x.doubles[row])
                        ? BigDecimal.valueOf(x.doubles[row]).setScale(digits, RoundingMode.HALF_EVEN).doubleValue()
                        : x.doubles[row];
                case DECIMAL -> out.longs[row] = BigDecimal.valueOf(x.requireLongs("the argument of bround()")[row],
                        x.type.scale()).setScale(digits, RoundingMode.HALF_EVEN).setScale(type.scale(), RoundingMode.UNNECESSARY)
                        .unscaledValue().longValueExact();
                default -> out.longs[row] = digits >= 0 ? x.longs[row]
                        : BigDecimal.valueOf(x.longs[row]).setScale(digits, RoundingMode.HALF_EVEN).longValueExact();
            }
        }
        return out;
    }

    /**
     * {@code rand([seed])}: uniform doubles in [0, 1); with a seed, the same sequence in every run of
     * the task (each task starts from the seed), as Spark's per-partition seeding makes it repeatable.
     */
    private static final class Rand implements FunctionKernel {
        private SplittableRandom random;

        @Override
        public Col apply(List<Col> args, int rows, DataType type) {
            if (random == null) {
                random = args.isEmpty() || args.get(0).isNull(0) ? new SplittableRandom()
                        : new SplittableRandom(Values.longs(args.get(0)).longs[0]);
            }
            double[] values = new double[rows];
            for (int row = 0; row < rows; row++) {
                values[row] = random.nextDouble();
            }
            return Col.ofDoubles(values, null);
        }
    }
}
