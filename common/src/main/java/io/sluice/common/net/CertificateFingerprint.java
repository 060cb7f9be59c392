package io.sluice.common.net;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.Locale;

/**
 * The SHA-256 fingerprint of a certificate, as the coordinator prints it and a client pins it
 * ({@code AB:CD:...}, upper-case hex in pairs): one spelling on both sides, so that a pasted value
 * compares equal.
 */
public final class CertificateFingerprint {
    private static final HexFormat PAIRS = HexFormat.ofDelimiter(":").withUpperCase();

    private CertificateFingerprint() {
    }

    /** The fingerprint of {@code certificate}'s DER encoding. */
    public static String of(X509Certificate certificate) {
        try {
            return PAIRS.formatHex(MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded()));
        } catch (CertificateEncodingException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("cannot hash a certificate", e);
        }
    }

    /**
     * {@code text} in the printed spelling: 64 hex digits, with or without colons, any case.
     *
     * @throws IllegalArgumentException naming the text when it is not a SHA-256 fingerprint
     */
    public static String parse(String text) {
        String digits = text.strip().replace(":", "").toUpperCase(Locale.ROOT);
        if (!digits.matches("[0-9A-F]{64}")) {
            throw new IllegalArgumentException("'" + text + "' is not a SHA-256 certificate fingerprint "
                    + "(64 hex digits, pairs may be separated by ':')");
        }
        return PAIRS.formatHex(HexFormat.of().parseHex(digits));
    }
}
