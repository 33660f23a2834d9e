package io.strata.it;

import io.strata.config.ServerConfig;
import io.strata.it.StrataFixture.Driver;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The short version of bench/load.sh: many more clients than backend connections. 1,000 logged-in clients sit idle
 * while 100 others run transactions, half of them with server-side prepared statements, over a pool of 16
 * connections: no client sees an error, and every idle one still answers afterwards.
 */
class ManyClientsIT {

    private static final int IDLE = 1_000;
    private static final int BUSY = 100;

    @Test
    void aThousandIdleAndAHundredBusyClientsShareSixteenBackendConnectionsWithoutAnError() throws Exception {
        try (StrataFixture strata = StrataFixture.start(ServerConfig.NATIVE_PASSWORD, Backend.server(),
                Map.of("maximumPoolSize", 16));
             Connection setup = strata.connect(Driver.MARIADB); Statement st = setup.createStatement()) {
            st.execute("DROP TABLE IF EXISTS many_clients");
            st.execute("CREATE TABLE many_clients (id INT PRIMARY KEY AUTO_INCREMENT, client INT, v INT)");
            ExecutorService pool = Executors.newFixedThreadPool(BUSY);
            List<Connection> idle = new ArrayList<>();
            try {
                List<Future<Connection>> opening = new ArrayList<>();
                for (int i = 0; i < IDLE; i++) {
                    opening.add(pool.submit(() -> strata.connect(Driver.MARIADB)));
                }
                for (Future<Connection> c : opening) {
                    idle.add(c.get(60, TimeUnit.SECONDS));
                }
                AtomicBoolean running = new AtomicBoolean(true);
                AtomicInteger transactions = new AtomicInteger();
                List<Future<?>> busy = new ArrayList<>();
                for (int i = 0; i < BUSY; i++) {
                    int client = i;
                    busy.add(pool.submit(() -> transactions(strata, client, running, transactions)));
                }
                Thread.sleep(8_000);
                running.set(false);
                for (Future<?> client : busy) {
                    client.get(60, TimeUnit.SECONDS); // rethrows the first error a client saw
                }
                assertTrue(transactions.get() > BUSY, "transactions ran: " + transactions.get());
                assertEquals(transactions.get(), countRows(st), "every committed transaction's row is there");
                for (Connection c : idle) {
                    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1")) {
                        assertTrue(rs.next());
                    }
                }
            } finally {
                for (Connection c : idle) {
                    c.close();
                }
                pool.shutdownNow();
            }
        }
    }

    /** BEGIN; INSERT; SELECT; COMMIT until told to stop; odd clients prepare on the server. */
    private static Void transactions(StrataFixture strata, int client, AtomicBoolean running, AtomicInteger done)
            throws SQLException {
        Properties props = new Properties();
        props.setProperty("useServerPrepStmts", String.valueOf(client % 2 == 1));
        try (Connection c = strata.connect(Driver.MARIADB, "it", "root", "root", props);
             PreparedStatement insert = c.prepareStatement("INSERT INTO many_clients (client, v) VALUES (?, ?)");
             PreparedStatement select = c.prepareStatement("SELECT COUNT(*) FROM many_clients WHERE client = ?")) {
            int mine = 0;
            while (running.get()) {
                c.setAutoCommit(false);
                insert.setInt(1, client);
                insert.setInt(2, mine);
                insert.executeUpdate();
                select.setInt(1, client);
                try (ResultSet rs = select.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals(mine + 1, rs.getInt(1), "the session reads its own write");
                }
                c.commit();
                c.setAutoCommit(true);
                mine++;
                done.incrementAndGet();
            }
        }
        return null;
    }

    private static int countRows(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM many_clients")) {
            assertTrue(rs.next());
            return rs.getInt(1);
        }
    }
}
