package io.strata.config;

/**
 * TLS towards clients. When enabled without a certificate, Strata makes a self-signed one at start (enough for
 * clients that encrypt without verifying, e.g. sslMode=REQUIRED / trust).
 *
 * @param certificate PEM certificate chain file, or null
 * @param privateKey  PEM PKCS#8 private key file, or null
 */
public record TlsConfig(boolean enabled, String certificate, String privateKey) {

    public static final TlsConfig DISABLED = new TlsConfig(false, null, null);

    public TlsConfig {
        if ((certificate == null) != (privateKey == null)) {
            throw new IllegalArgumentException("TLS needs both a certificate and a private key, or neither");
        }
    }

    public static TlsConfig selfSigned() {
        return new TlsConfig(true, null, null);
    }
}
