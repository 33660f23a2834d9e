package io.strata.config;

/**
 * server.socket: a Unix domain socket clients on the same host connect through, beside the TCP port, with the same
 * logins. The fastest local path: no TCP stack, no loopback interface.
 *
 * @param path the socket file (relative to the directory Strata runs in), or null for none
 * @param mode its file mode, octal as chmod takes it ({@code 0777}, MySQL's; {@code 0660} for a group only)
 */
public record SocketConfig(String path, String mode) {

    public static final String DEFAULT_MODE = "0777";
    public static final SocketConfig NONE = new SocketConfig(null, DEFAULT_MODE);

    public boolean enabled() {
        return path != null;
    }

    /** The mode as rwx letters ({@code rwxrwxrwx}), for the file's POSIX permissions. */
    public String permissions() {
        int bits = Integer.parseInt(mode, 8);
        StringBuilder letters = new StringBuilder();
        for (int shift = 6; shift >= 0; shift -= 3) {
            int three = (bits >> shift) & 7;
            letters.append((three & 4) != 0 ? 'r' : '-').append((three & 2) != 0 ? 'w' : '-')
                    .append((three & 1) != 0 ? 'x' : '-');
        }
        return letters.toString();
    }
}
