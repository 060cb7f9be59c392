package io.sluice.cluster.auth;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.DERUTF8String;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A self-signed X.509 v3 certificate for an EC key (ECDSA with SHA-256), made with BouncyCastle's
 * certificate builder rather than DER written by hand. It carries only what TLS needs: a subject
 * common name, a validity period and the public key. Signing and parsing use the JDK's providers;
 * the BouncyCastle provider is not registered. Artery's node identities and the coordinator's
 * self-signed HTTPS certificate are both made here.
 */
public final class SelfSignedCertificate {
    private static final String SIGNATURE_ALGORITHM = "SHA256withECDSA";
    private static final Date NOT_BEFORE = Date.from(Instant.parse("2020-01-01T00:00:00Z"));
    private static final Date NOT_AFTER = Date.from(Instant.parse("2100-01-01T00:00:00Z"));

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
        boolean address = host.matches("[0-9.]+") || host.indexOf(':') >= 0;
        return create(keys, host, serial, new GeneralNames(new GeneralName(
                address ? GeneralName.iPAddress : GeneralName.dNSName, host.replace("[", "").replace("]", ""))));
    }

    private static X509Certificate create(KeyPair keys, String commonName, long serial, GeneralNames alternativeNames)
            throws GeneralSecurityException {
        // The value is given encoded: BCStyle refuses a name over RFC 5280's 64 characters, and a
        // node's name ("sluice-" and 64 hex digits) is 71; peers of every version expect exactly it.
        X500Name name = new X500NameBuilder(BCStyle.INSTANCE)
                .addRDN(BCStyle.CN, new DERUTF8String(commonName))
                .build();
        try {
            ContentSigner signer = new JcaContentSignerBuilder(SIGNATURE_ALGORITHM).build(keys.getPrivate());
            JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name, BigInteger.valueOf(serial),
                    NOT_BEFORE, NOT_AFTER, name, keys.getPublic());
            if (alternativeNames != null) {
                builder.addExtension(Extension.subjectAlternativeName, false, alternativeNames);
            }
            X509CertificateHolder certificate = builder.build(signer);
            return new JcaX509CertificateConverter().getCertificate(certificate);
        } catch (CertIOException e) {
            throw new GeneralSecurityException("cannot name " + commonName + " in a certificate", e);
        } catch (OperatorCreationException e) {
            throw new GeneralSecurityException("cannot sign a certificate with " + SIGNATURE_ALGORITHM, e);
        }
    }
}
