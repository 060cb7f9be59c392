package io.sluice.cluster.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class SelfSignedCertificateTest {
    /** As long as a node's name: "sluice-" and an HMAC-SHA256 in hex, over RFC 5280's 64 characters. */
    private static final String NAME = "sluice-" + "0123456789abcdef".repeat(4);

    @Test
    void namesTheKeyAndSignsItself() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair keys = generator.generateKeyPair();

        X509Certificate certificate = SelfSignedCertificate.create(keys, NAME, 42);

        certificate.verify(keys.getPublic());
        assertThat(certificate.getVersion()).isEqualTo(3);
        assertThat(certificate.getSerialNumber()).hasToString("42");
        assertThat(certificate.getSigAlgName()).isEqualTo("SHA256withECDSA");
        assertThat(certificate.getPublicKey()).isEqualTo(keys.getPublic());
        assertThat(certificate.getSubjectX500Principal().getName()).isEqualTo("CN=" + NAME);
        assertThat(certificate.getIssuerX500Principal()).isEqualTo(certificate.getSubjectX500Principal());
        assertThat(certificate.getNotBefore().toInstant()).isEqualTo(Instant.parse("2020-01-01T00:00:00Z"));
        assertThat(certificate.getNotAfter().toInstant()).isEqualTo(Instant.parse("2100-01-01T00:00:00Z"));
    }
}
