package io.strata.backend.connection;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.strata.config.BackendTls;
import io.strata.config.DataSourceConfig;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import java.io.File;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The TLS of native backend connections, as MariaDB Connector/J's {@code sslMode} means it: {@code trust} takes any
 * certificate, {@code verify-ca} one that chains to {@code serverSslCert} (or the JVM's trust store), {@code
 * verify-full} also checks that it names the host. A client key store is offered when given. One context per
 * settings, made at the first connection.
 */
final class BackendTlsContexts {

    private static final Map<BackendTls, SslContext> CONTEXTS = new ConcurrentHashMap<>();

    private BackendTlsContexts() {
    }

    /** A handler for one new connection to {@code dataSource}, whose TLS is on. */
    static SslHandler handler(DataSourceConfig dataSource, ByteBufAllocator alloc) {
        BackendTls tls = dataSource.tls();
        SslHandler handler = CONTEXTS.computeIfAbsent(tls, BackendTlsContexts::context)
                .newHandler(alloc, dataSource.host(), dataSource.port());
        if (tls.sslMode().equals(BackendTls.VERIFY_FULL)) {
            SSLEngine engine = handler.engine();
            SSLParameters parameters = engine.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS"); // the certificate must name the host
            engine.setSSLParameters(parameters);
        }
        return handler;
    }

    private static SslContext context(BackendTls tls) {
        try {
            SslContextBuilder builder = SslContextBuilder.forClient();
            if (tls.sslMode().equals(BackendTls.TRUST)) {
                builder.trustManager(InsecureTrustManagerFactory.INSTANCE);
            } else if (tls.serverSslCert() != null) {
                builder.trustManager(new File(tls.serverSslCert()));
            }
            if (tls.keyStore() != null) {
                char[] password = tls.keyStorePassword() == null ? new char[0] : tls.keyStorePassword().toCharArray();
                KeyStore store = KeyStore.getInstance(tls.keyStoreType() == null ? "PKCS12" : tls.keyStoreType());
                try (InputStream in = Files.newInputStream(Path.of(tls.keyStore()))) {
                    store.load(in, password);
                }
                KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keys.init(store, password);
                builder.keyManager(keys);
            }
            return builder.build();
        } catch (Exception e) {
            throw new IllegalStateException("cannot set up TLS to the backend (" + tls + "): " + e.getMessage(), e);
        }
    }
}
