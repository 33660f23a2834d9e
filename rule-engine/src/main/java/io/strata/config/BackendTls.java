package io.strata.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * TLS from Strata to one data source, written as MariaDB Connector/J writes it in the data source's URL
 * ({@code jdbc:mariadb://db:3306/app?sslMode=verify-full&serverSslCert=/etc/strata/ca.pem}), and honoured alike by
 * the native relay pools and by HikariCP:
 * <ul>
 *   <li>{@code sslMode}: {@code disable} (the default), {@code trust} (encrypted, any certificate),
 *       {@code verify-ca} (the certificate chains to a trusted CA), {@code verify-full} (and names the host);</li>
 *   <li>{@code serverSslCert}: the CA (or the server's own certificate) to trust, a PEM file; without it the JVM's
 *       trust store;</li>
 *   <li>{@code keyStore}, {@code keyStorePassword}, {@code keyStoreType} (PKCS12 by default): the client key and
 *       certificate, for accounts created {@code REQUIRE X509}.</li>
 * </ul>
 * A data source with TLS on never falls back to clear text: a server that offers none, or a certificate that fails
 * verification, is an error for that data source.
 */
public record BackendTls(String sslMode, String serverSslCert, String keyStore, String keyStorePassword,
                         String keyStoreType) {

    public static final String DISABLE = "disable";
    public static final String TRUST = "trust";
    public static final String VERIFY_CA = "verify-ca";
    public static final String VERIFY_FULL = "verify-full";
    public static final List<String> MODES = List.of(DISABLE, TRUST, VERIFY_CA, VERIFY_FULL);
    public static final BackendTls OFF = new BackendTls(DISABLE, null, null, null, null);

    /**
     * The TLS settings of a JDBC URL's parameters.
     *
     * @throws IllegalArgumentException naming the parameter when a value is not one Connector/J takes, or a file
     *     it names is missing
     */
    public static BackendTls ofUrl(String url) {
        Map<String, String> params = parameters(url);
        String mode = params.getOrDefault("sslMode", DISABLE).toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        if (!MODES.contains(mode)) {
            throw new IllegalArgumentException("sslMode must be one of " + MODES + ", got '" + params.get("sslMode")
                    + "'");
        }
        for (String file : List.of("serverSslCert", "keyStore")) {
            String path = params.get(file);
            if (path != null && !Files.isReadable(Path.of(path))) {
                throw new IllegalArgumentException(file + " names no readable file: '" + path + "'");
            }
        }
        return new BackendTls(mode, params.get("serverSslCert"), params.get("keyStore"),
                params.get("keyStorePassword"), params.get("keyStoreType"));
    }

    public boolean enabled() {
        return !sslMode.equals(DISABLE);
    }

    /** The same settings as Connector/J URL parameters ({@code &sslMode=...}), for the JDBC pools and checks. */
    public String urlParameters() {
        if (!enabled()) {
            return "";
        }
        StringBuilder out = new StringBuilder("&sslMode=").append(sslMode);
        append(out, "serverSslCert", serverSslCert);
        append(out, "keyStore", keyStore);
        append(out, "keyStorePassword", keyStorePassword);
        append(out, "keyStoreType", keyStoreType);
        return out.toString();
    }

    private static void append(StringBuilder out, String key, String value) {
        if (value != null) {
            out.append('&').append(key).append('=').append(value); // Connector/J reads its parameters undecoded
        }
    }

    private static Map<String, String> parameters(String url) {
        Map<String, String> params = new LinkedHashMap<>();
        int query = url.indexOf('?');
        if (query < 0) {
            return params;
        }
        for (String pair : url.substring(query + 1).split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                params.put(pair.substring(0, eq), pair.substring(eq + 1)); // as Connector/J reads them: undecoded
            }
        }
        return params;
    }

    // Records print every component; the key store's password must not reach a log.
    @Override
    public String toString() {
        return "BackendTls[sslMode=" + sslMode + ", serverSslCert=" + serverSslCert + ", keyStore=" + keyStore + "]";
    }
}
