package io.sluice.common.net;

import io.sluice.common.SluiceException;

/**
 * Whether a cluster secret is long enough that guessing it is hopeless, even offline: at least
 * {@value #MIN_BITS} bits, counted as its length (trailing {@code =} padding excluded) times the
 * bits per character of the smallest of these alphabets that holds all its characters: decimal
 * digits (log2 10), hexadecimal digits (4), base64 and base64url with padding ({@code A-Z a-z 0-9 + /
 * - _ =}: 6), printable ASCII (log2 95), anything else (8). So a hex secret needs 32 digits, a
 * base64 one 22 characters, printable text 20 characters. This is an upper bound on the secret's
 * entropy (a word repeated counts as random), so it refuses the short secrets, not every weak one.
 */
public final class SecretStrength {
    public static final int MIN_BITS = 128;
    public static final String HOW_TO_MAKE_ONE = "make one with 'openssl rand -base64 32' (or 'openssl rand -hex 32')";

    private SecretStrength() {
    }

    /** The secret's strength in bits, by the rule above. */
    public static double bits(String secret) {
        String s = secret;
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == '=') {
            end--;
        }
        s = s.substring(0, end);
        double perChar = 0;
        for (int i = 0; i < s.length(); i++) {
            perChar = Math.max(perChar, bitsOf(s.charAt(i)));
        }
        return s.length() * perChar;
    }

    /** Returns {@code secret}, or throws naming its strength and how to make a good one; never shows the secret. */
    public static String requireStrong(String secret) {
        double bits = bits(secret);
        if (bits < MIN_BITS) {
            throw new SluiceException(String.format(java.util.Locale.ROOT, "the cluster secret is too short: %d "
                    + "characters, about %d bits; at least %d bits are needed (32 hex digits, 22 base64 characters)"
                    + " so that it cannot be guessed; %s and set it on every node and client",
                    secret.length(), (int) bits, MIN_BITS, HOW_TO_MAKE_ONE));
        }
        return secret;
    }

    private static double bitsOf(char c) {
        if (c >= '0' && c <= '9') {
            return Math.log(10) / Math.log(2);
        }
        if (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
            return 4;
        }
        if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '+' || c == '/' || c == '-' || c == '_' || c == '=') {
            return 6;
        }
        if (c >= 0x20 && c < 0x7f) {
            return Math.log(95) / Math.log(2);
        }
        return 8;
    }
}
