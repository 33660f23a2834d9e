package io.strata.backend.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.strata.config.DataSourceConfig;
import io.strata.protocol.Capabilities;
import io.strata.protocol.ErrorCode;
import io.strata.protocol.MySQLException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Opening a backend connection to a server that does not behave. */
class BackendConnectorTest {

    /**
     * A hung server (SIGSTOP, or a network that swallows packets) still completes the TCP connect from its kernel's
     * backlog but never greets: the open fails within connectionTimeout, so a read can go to another replica.
     */
    @Test
    void aServerThatAcceptsButNeverGreetsFailsTheOpenWithinConnectionTimeout() throws Exception {
        EventLoopGroup group = Transports.eventLoopGroup(1, new DefaultThreadFactory("connector-test"));
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            DataSourceConfig dataSource = DataSourceConfig.of("hung",
                    "jdbc:mariadb://127.0.0.1:" + silent.getLocalPort() + "/app", "app", "app",
                    Map.of("connectionTimeout", 300));
            long started = System.nanoTime();
            var open = new BackendConnector(group).connect(dataSource, Capabilities.FLAVOR_MASK);
            try (Socket accepted = silent.accept()) { // the connect itself succeeds
                ExecutionException failed = assertThrows(ExecutionException.class, () -> open.get(10, TimeUnit.SECONDS));
                MySQLException error = (MySQLException) failed.getCause();
                assertEquals(ErrorCode.BACKEND_UNAVAILABLE.code(), error.packet().errorCode());
                assertTrue(error.getMessage().contains("no greeting and login within connectionTimeout (300 ms)"),
                        error.getMessage());
                assertTrue(System.nanoTime() - started >= TimeUnit.MILLISECONDS.toNanos(300), "not before the timeout");
                assertEquals(-1, accepted.getInputStream().read(), "the connection is closed, not left open");
            }
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }
}
