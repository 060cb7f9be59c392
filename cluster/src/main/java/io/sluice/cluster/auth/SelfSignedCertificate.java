package io.sluice.cluster.auth;

import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;

/**
 * A self-signed X.509 v3 certificate for an EC key (ECDSA with SHA-256), its DER written by
 * {@link Der} and signed and parsed by the JDK's providers, so that no certificate library is
 * loaded on a node's start. It carries only what TLS needs: a subject common name (UTF8String, as
 * long as the caller wants: a node's name is 71 characters, over RFC 5280's 64, and peers expect
 * exactly it), a validity period, the public key and optionally one subject alternative name.
 * Artery's node identities and the coordinator's self-signed HTTPS certificate are both made here.
 */
public final class SelfSignedCertificate {
    private static final String SIGNATURE_ALGORITHM = "SHA256withECDSA";
    private static final String ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2";
    private static final String COMMON_NAME = "2.5.4.3";
    private static final String SUBJECT_ALTERNATIVE_NAME = "2.5.29.17";
    private static final int DNS_NAME = 2;
    private static final int IP_ADDRESS = 7;
    private static final String NOT_BEFORE = "20200101000000";
    private static final String NOT_AFTER = "21000101000000";

    private SelfSignedCertificate() {
    }

    /** A fresh EC key pair (P-256) for a certificate. */
    public static KeyPair newKeyPair() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    /** A certificate for {@code keys} naming {@code commonName} as subject and issuer. */
    public static X509Certificate create(KeyPair keys, String commonName, long serial) throws GeneralSecurityException {
        return create(keys, commonName, serial, null);
    }

    /**
     * A certificate for {@code keys} naming {@code host} (an IP address or a DNS name) as its
     * subject and its one subject alternative name, so that a client trusting it checks the host
     * name as usual.
     */
    public static X509Certificate forHost(KeyPair keys, String host, long serial) throws GeneralSecurityException {
        String bare = host.replace("[", "").replace("]", "");
        boolean address = host.matches("[0-9.]+") || host.indexOf(':') >= 0;
        byte[] alternativeName;
        if (address) {
            try {
                // a literal address: parsed, never looked up
                alternativeName = Der.implicit(IP_ADDRESS, InetAddress.getByName(bare).getAddress());
            } catch (UnknownHostException e) {
                throw new GeneralSecurityException("not an IP address: " + host, e);
            }
        } else {
            alternativeName = Der.implicit(DNS_NAME, bare.getBytes(StandardCharsets.US_ASCII));
        }
        return create(keys, host, serial, Der.sequence(alternativeName));
    }

    private static X509Certificate create(KeyPair keys, String commonName, long serial, byte[] alternativeNames)
            throws GeneralSecurityException {
        byte[] name = Der.sequence(Der.set(Der.sequence(Der.objectIdentifier(COMMON_NAME), Der.utf8String(commonName))));
        byte[] algorithm = Der.sequence(Der.objectIdentifier(ECDSA_WITH_SHA256));
        byte[] extensions = alternativeNames == null
                ? new byte[0]
                : Der.explicit(3, Der.sequence(Der.sequence(Der.objectIdentifier(SUBJECT_ALTERNATIVE_NAME),
                        Der.octetString(alternativeNames))));
        byte[] toBeSigned = Der.sequence(
                Der.explicit(0, Der.integer(BigInteger.TWO)),
                Der.integer(BigInteger.valueOf(serial)),
                algorithm,
                name,
                Der.sequence(Der.time(NOT_BEFORE), Der.time(NOT_AFTER)),
                name,
                keys.getPublic().getEncoded(),
                extensions);
        Signature signer = Signature.getInstance(SIGNATURE_ALGORITHM);
        signer.initSign(keys.getPrivate());
        signer.update(toBeSigned);
        byte[] certificate = Der.sequence(toBeSigned, algorithm, Der.bitString(signer.sign()));
        return (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(certificate));
    }
}
