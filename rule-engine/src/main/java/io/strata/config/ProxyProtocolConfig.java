package io.strata.config;

import java.util.List;

/**
 * server.proxyProtocol: clients connecting from {@code trustedNetworks} (a load balancer, HAProxy) must start with a
 * PROXY protocol header (v1 or v2) naming the real client, whose address Strata then uses everywhere (logins' host
 * patterns, query rules' clientAddress, the process list, the slow log); a header from anyone else is refused.
 *
 * @param trustedNetworks addresses and CIDR blocks ({@code 10.0.0.0/8}, {@code ::1}) whose peers send the header
 */
public record ProxyProtocolConfig(boolean enabled, List<String> trustedNetworks) {

    public static final ProxyProtocolConfig DISABLED = new ProxyProtocolConfig(false, List.of());

    public ProxyProtocolConfig {
        trustedNetworks = List.copyOf(trustedNetworks);
    }
}
