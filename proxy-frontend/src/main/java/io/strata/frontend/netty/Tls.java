package io.strata.frontend.netty;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.SelfSignedCertificate;
import io.strata.config.TlsConfig;

import javax.net.ssl.SSLException;
import java.io.File;
import java.security.cert.CertificateException;

/** The server-side TLS context clients upgrade to after an SSLRequest, or null when TLS is off. */
public final class Tls {

    private Tls() {
    }

    public static SslContext serverContext(TlsConfig config) {
        if (!config.enabled()) {
            return null;
        }
        try {
            if (config.certificate() != null) {
                return SslContextBuilder.forServer(new File(config.certificate()), new File(config.privateKey()))
                        .build();
            }
            SelfSignedCertificate selfSigned = new SelfSignedCertificate("strata");
            return SslContextBuilder.forServer(selfSigned.certificate(), selfSigned.privateKey()).build();
        } catch (SSLException | CertificateException | IllegalArgumentException e) {
            throw new IllegalStateException("cannot set up TLS: " + e.getMessage(), e);
        }
    }
}
