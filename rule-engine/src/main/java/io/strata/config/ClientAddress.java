package io.strata.config;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * A client address matcher (query rules' clientAddress, server.proxyProtocol.trustedNetworks): one address
 * ({@code 10.0.0.5}, {@code ::1}, {@code localhost}) or a CIDR block ({@code 10.0.0.0/8}, {@code fd00::/8}). Written
 * as numbers only: nothing here resolves a host name.
 */
public record ClientAddress(String written, byte[] network, int prefixBits) {

    /** The last client address read, for sessions from one host: its bytes are not read again per statement. */
    private static volatile Read last = new Read("", new byte[0]);

    private record Read(String client, byte[] bytes) {
    }

    /** @throws IllegalArgumentException when {@code written} is no address or CIDR block */
    public static ClientAddress parse(String written) {
        if (written.equalsIgnoreCase("localhost")) {
            return new ClientAddress(written, null, 0);
        }
        int slash = written.indexOf('/');
        String address = slash < 0 ? written : written.substring(0, slash);
        byte[] network = literal(address);
        int bits = network.length * 8;
        int prefix = bits;
        if (slash >= 0) {
            try {
                prefix = Integer.parseInt(written.substring(slash + 1));
            } catch (NumberFormatException e) {
                prefix = -1;
            }
            if (prefix < 0 || prefix > bits) {
                throw new IllegalArgumentException("a prefix length from 0 to " + bits + " after the /");
            }
        }
        return new ClientAddress(written, network, prefix);
    }

    /** Whether a session's client address (as Session.remoteHost gives it) is in the block. */
    public boolean matches(String client) {
        if (network == null) {
            return client.equals("localhost") || client.equals("127.0.0.1") || client.equals("0:0:0:0:0:0:0:1");
        }
        byte[] address = bytes(client);
        if (address == null) {
            return false;
        }
        if (address.length != network.length) {
            return false;
        }
        int full = prefixBits / 8;
        for (int i = 0; i < full; i++) {
            if (address[i] != network[i]) {
                return false;
            }
        }
        int rest = prefixBits % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xFF << (8 - rest)) & 0xFF;
        return (address[full] & mask) == (network[full] & mask);
    }

    /** The bytes of a session's client address, or null when it is none (a Unix socket's "localhost"). */
    private static byte[] bytes(String client) {
        Read read = last;
        if (read.client().equals(client)) {
            return read.bytes();
        }
        try {
            byte[] bytes = literal(client);
            last = new Read(client, bytes);
            return bytes;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The bytes of a numeric IPv4 or IPv6 address; a name is refused rather than looked up. */
    private static byte[] literal(String address) {
        boolean numeric = !address.isEmpty() && (address.indexOf(':') >= 0 || address.chars()
                .allMatch(c -> c == '.' || c >= '0' && c <= '9'));
        if (!numeric) {
            throw new IllegalArgumentException("an IP address or CIDR block, not a host name");
        }
        try {
            return InetAddress.getByName(address).getAddress(); // a literal: no lookup
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("an IP address or CIDR block", e);
        }
    }
}
