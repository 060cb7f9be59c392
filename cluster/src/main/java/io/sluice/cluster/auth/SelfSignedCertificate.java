package io.sluice.cluster.auth;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;

/**
 * A minimal self-signed X.509 v3 certificate for an EC key (ECDSA with SHA-256), written in DER by
 * hand so that no certificate tooling is needed at run time. It carries only what TLS needs: a
 * subject common name, a validity period and the public key.
 */
final class SelfSignedCertificate {
    private static final byte[] ECDSA_WITH_SHA256 = oid(1, 2, 840, 10045, 4, 3, 2);
    private static final byte[] COMMON_NAME = oid(2, 5, 4, 3);

    private SelfSignedCertificate() {
    }

    /** A certificate for {@code keys} naming {@code commonName} as subject and issuer. */
    static X509Certificate create(KeyPair keys, String commonName, long serial) throws GeneralSecurityException {
        byte[] algorithm = sequence(ECDSA_WITH_SHA256);
        byte[] name = sequence(set(sequence(COMMON_NAME, tlv(0x0c, commonName.getBytes(StandardCharsets.UTF_8)))));
        byte[] validity = sequence(tlv(0x17, "200101000000Z".getBytes(StandardCharsets.US_ASCII)),
                tlv(0x18, "21000101000000Z".getBytes(StandardCharsets.US_ASCII)));
        byte[] tbs = sequence(
                tlv(0xa0, integer(BigInteger.TWO)), // version 3
                integer(BigInteger.valueOf(serial)),
                algorithm, name, validity, name,
                keys.getPublic().getEncoded()); // already a DER SubjectPublicKeyInfo
        Signature signer = Signature.getInstance("SHA256withECDSA");
        signer.initSign(keys.getPrivate());
        signer.update(tbs);
        byte[] signature = signer.sign();
        byte[] bitString = new byte[signature.length + 1]; // no unused bits
        System.arraycopy(signature, 0, bitString, 1, signature.length);
        byte[] der = sequence(tbs, algorithm, tlv(0x03, bitString));
        return (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(der));
    }

    private static byte[] integer(BigInteger value) {
        return tlv(0x02, value.toByteArray());
    }

    private static byte[] sequence(byte[]... parts) {
        return tlv(0x30, concat(parts));
    }

    private static byte[] set(byte[]... parts) {
        return tlv(0x31, concat(parts));
    }

    private static byte[] oid(int... arcs) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(40 * arcs[0] + arcs[1]);
        for (int i = 2; i < arcs.length; i++) {
            int arc = arcs[i];
            int shift = 28;
            while (shift > 0 && (arc >>> shift) == 0) {
                shift -= 7;
            }
            for (; shift > 0; shift -= 7) {
                out.write(0x80 | ((arc >>> shift) & 0x7f));
            }
            out.write(arc & 0x7f);
        }
        return tlv(0x06, out.toByteArray());
    }

    private static byte[] tlv(int tag, byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(value.length + 6);
        out.write(tag);
        int length = value.length;
        if (length < 0x80) {
            out.write(length);
        } else if (length < 0x100) {
            out.write(0x81);
            out.write(length);
        } else if (length < 0x10000) {
            out.write(0x82);
            out.write(length >>> 8);
            out.write(length);
        } else {
            throw new IllegalArgumentException("DER value too long for a certificate: " + length);
        }
        out.writeBytes(value);
        return out.toByteArray();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
