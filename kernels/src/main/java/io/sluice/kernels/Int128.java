package io.sluice.kernels;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * 128-bit two's complement integers held as two longs (high: signed, low: the unsigned low 64
 * bits), the unscaled values of decimals of precision 19 to 38 (Arrow's Decimal128). Static
 * helpers only, so the hot loops keep their values in primitive arrays and never box.
 * Multiplication and division of values past a long go through {@link BigInteger}: they are rare
 * (only rows whose operands themselves pass a long) and never the common TPC-H path.
 */
public final class Int128 {
    private Int128() {
    }

    /** {@code 10^n} for n in [0, 38] as high and low words. */
    private static final long[] POW10_HIGH = new long[39];
    private static final long[] POW10_LOW = new long[39];

    static {
        BigInteger p = BigInteger.ONE;
        for (int i = 0; i <= 38; i++) {
            POW10_HIGH[i] = p.shiftRight(64).longValue();
            POW10_LOW[i] = p.longValue();
            p = p.multiply(BigInteger.TEN);
        }
    }

    /** Whether the value fits one signed long (the high word only extends the low word's sign). */
    public static boolean fitsLong(long high, long low) {
        return high == (low >> 63);
    }

    /** Signed comparison of two 128-bit values. */
    public static int compare(long aHigh, long aLow, long bHigh, long bLow) {
        int c = Long.compare(aHigh, bHigh);
        return c != 0 ? c : Long.compareUnsigned(aLow, bLow);
    }

    /** Whether {@code |value| < 10^precision}, i.e. the unscaled value fits a decimal of that precision. */
    public static boolean fitsPrecision(long high, long low, int precision) {
        if (precision >= 39) {
            return true;
        }
        if (high < 0) {
            // -value > -10^p  <=>  value > -10^p
            long nLow = -POW10_LOW[precision];
            long nHigh = ~POW10_HIGH[precision] + (nLow == 0 ? 1 : 0);
            return compare(high, low, nHigh, nLow) > 0;
        }
        return compare(high, low, POW10_HIGH[precision], POW10_LOW[precision]) < 0;
    }

    /** The high word of {@code a + b} for low words {@code aLow + bLow = sumLow}: the carry folded in. */
    public static long addHigh(long aHigh, long aLow, long bHigh, long sumLow) {
        long carry = Long.compareUnsigned(sumLow, aLow) < 0 ? 1 : 0;
        long high = aHigh + bHigh + carry;
        if (((aHigh ^ high) & (bHigh ^ high)) < 0) {
            throw new ArithmeticException("128-bit overflow");
        }
        return high;
    }

    /** The value as a double (nearest, up to the last bit). */
    public static double toDouble(long high, long low) {
        if (fitsLong(high, low)) {
            return low;
        }
        double unsignedLow = (double) (low >>> 1) * 2.0 + (low & 1);
        return high * 0x1.0p64 + unsignedLow;
    }

    public static BigInteger toBigInteger(long high, long low) {
        if (fitsLong(high, low)) {
            return BigInteger.valueOf(low);
        }
        return BigInteger.valueOf(high).shiftLeft(64).or(BigInteger.valueOf(low).and(LOW_MASK));
    }

    private static final BigInteger LOW_MASK = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    public static BigDecimal toBigDecimal(long high, long low, int scale) {
        return fitsLong(high, low) ? BigDecimal.valueOf(low, scale) : new BigDecimal(toBigInteger(high, low), scale);
    }

    /** The high word of a value of at most 127 bits; a wider value is an {@link ArithmeticException}. */
    public static long high(BigInteger value) {
        if (value.bitLength() > 127) {
            throw new ArithmeticException("value does not fit 128 bits");
        }
        return value.shiftRight(64).longValue();
    }

    public static long low(BigInteger value) {
        return value.longValue();
    }

    /** A mixed 64-bit hash of a value that equals the plain long's for a value that fits a long. */
    public static long hashBits(long high, long low) {
        return fitsLong(high, low) ? low : low ^ (high * 0x9E3779B97F4A7C15L);
    }
}
