package io.strata.it;

import java.io.IOException;
import java.net.ServerSocket;

/** Ports for servers a test starts in processes of their own, where port 0 cannot be asked for. */
final class Ports {

    private Ports() {
    }

    /** A port nothing listens on now (the OS's pick for an ephemeral bind, released at once). */
    static int free() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
