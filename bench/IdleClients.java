import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Opens N client connections to a MySQL-protocol server, runs SELECT 1 on each (so each is logged in and has been
 * used), prints "ready N" and then holds them, idle, until killed. Run by bench/load.sh with the java launcher and
 * MariaDB Connector/J on the class path:
 * {@code java -cp mariadb-java-client.jar bench/IdleClients.java <port> <user> <password> <database> <n>}.
 */
public class IdleClients {

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: java -cp <mariadb-java-client.jar> IdleClients.java port user password database n");
            System.exit(2);
        }
        String url = "jdbc:mariadb://127.0.0.1:" + args[0] + "/" + args[3];
        int n = Integer.parseInt(args[4]);
        List<Connection> open = Collections.synchronizedList(new ArrayList<>(n));
        AtomicInteger failed = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(32);
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            done.add(pool.submit(() -> {
                try {
                    Connection c = DriverManager.getConnection(url, args[1], args[2]);
                    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 1")) {
                        rs.next();
                    }
                    open.add(c);
                } catch (Exception e) {
                    if (failed.incrementAndGet() <= 5) {
                        System.err.println("connection failed: " + e.getMessage());
                    }
                }
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        pool.shutdown();
        System.out.println("ready " + open.size() + " failed " + failed.get());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
