package io.strata.bootstrap.sandbox;

import io.strata.bootstrap.Strata;
import io.strata.config.DataSourceConfig;
import io.strata.config.DatabaseConfig;
import io.strata.config.ServerConfig;
import io.strata.config.StrataConfig;
import io.strata.config.UserConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * A ready-to-use Strata on a fresh machine: an embedded MariaDB (port 3306 by default, or {@code -Dsandbox.mariadb.port})
 * with schema and user {@code sbtest}/{@code sbtest}, and Strata in front of it on port 3307 (or
 * {@code -Dsandbox.port}) with users {@code root}/{@code root} and {@code sbtest}/{@code sbtest}.
 * Ctrl-C stops both.
 */
public final class Sandbox {

    private static final Logger LOG = LoggerFactory.getLogger(Sandbox.class);

    private Sandbox() {
    }

    public static void main(String[] args) throws InterruptedException {
        int mariadbPort = Integer.getInteger("sandbox.mariadb.port", 3306);
        int port = Integer.getInteger("sandbox.port", ServerConfig.DEFAULT_PORT);
        EmbeddedMariaDb mariadb = EmbeddedMariaDb.start(mariadbPort);
        mariadb.createDatabase("sbtest", "sbtest", "sbtest");
        Strata strata = Strata.builder().config(config(mariadb, port)).start();
        LOG.info("Sandbox ready: MariaDB on 127.0.0.1:{}, Strata on 127.0.0.1:{}", mariadb.port(), strata.port());
        System.out.printf("%nStrata sandbox is up. Connect with:%n  mariadb -h127.0.0.1 -P%d -uroot -proot sbtest%n"
                + "Ctrl-C stops Strata and the embedded MariaDB.%n", strata.port());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            strata.close();
            mariadb.close();
            stopped.countDown();
        }, "sandbox-shutdown"));
        stopped.await();
    }

    static StrataConfig config(EmbeddedMariaDb mariadb, int port) {
        ServerConfig server = ServerConfig.defaults(List.of(
                new UserConfig("root", "root", List.of("*")),
                new UserConfig("sbtest", "sbtest", List.of("sbtest")))).withPort(port);
        DataSourceConfig ds = DataSourceConfig.of("ds_0", mariadb.jdbcUrl("sbtest"), "sbtest", "sbtest",
                Map.of("maximumPoolSize", 64));
        DatabaseConfig database = new DatabaseConfig("sbtest", Map.of("ds_0", ds), List.of());
        return new StrataConfig(server, Map.of("sbtest", database));
    }
}
