package io.sluice.cluster.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class SelfSignedCertificateTest {
    /** As long as a node's name: "sluice-" and an HMAC-SHA256 in hex, over RFC 5280's 64 characters. */
    private static final String NAME = "sluice-" + "0123456789abcdef".repeat(4);
    private static final int DNS_NAME = 2;
    private static final int IP_ADDRESS = 7;

    @Test
    void namesTheKeyAndSignsItself() throws Exception {
        KeyPair keys = SelfSignedCertificate.newKeyPair();

        X509Certificate certificate = SelfSignedCertificate.create(keys, NAME, 42);

        certificate.verify(keys.getPublic());
        certificate.checkValidity();
        assertThat(certificate.getVersion()).isEqualTo(3);
        assertThat(certificate.getSerialNumber()).hasToString("42");
        assertThat(certificate.getSigAlgName()).isEqualTo("SHA256withECDSA");
        assertThat(certificate.getPublicKey()).isEqualTo(keys.getPublic());
        assertThat(certificate.getSubjectX500Principal().getName()).isEqualTo("CN=" + NAME);
        assertThat(certificate.getIssuerX500Principal()).isEqualTo(certificate.getSubjectX500Principal());
        assertThat(certificate.getNotBefore().toInstant()).isEqualTo(Instant.parse("2020-01-01T00:00:00Z"));
        assertThat(certificate.getNotAfter().toInstant()).isEqualTo(Instant.parse("2100-01-01T00:00:00Z"));
        assertThat(certificate.getSubjectAlternativeNames()).isNull();
        assertThat(certificate.getCriticalExtensionOIDs()).isNull();
    }

    @Test
    void namesAHostAsItsAlternativeName() throws Exception {
        KeyPair keys = SelfSignedCertificate.newKeyPair();

        X509Certificate address = SelfSignedCertificate.forHost(keys, "127.0.0.1", Long.MAX_VALUE);
        X509Certificate v6 = SelfSignedCertificate.forHost(keys, "[::1]", 1);
        X509Certificate host = SelfSignedCertificate.forHost(keys, "db.example.com", 2);

        address.verify(keys.getPublic());
        assertThat(address.getSerialNumber()).isEqualTo(Long.MAX_VALUE);
        assertThat(address.getSubjectX500Principal().getName()).isEqualTo("CN=127.0.0.1");
        assertThat(address.getSubjectAlternativeNames()).containsExactly(List.of(IP_ADDRESS, "127.0.0.1"));
        assertThat(address.getNonCriticalExtensionOIDs()).containsExactly("2.5.29.17");
        assertThat(v6.getSubjectAlternativeNames()).containsExactly(List.of(IP_ADDRESS, "0:0:0:0:0:0:0:1"));
        assertThat(host.getSubjectAlternativeNames()).containsExactly(List.of(DNS_NAME, "db.example.com"));
    }
}
