package io.strata.bench.embedded;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;

/** Shows what the backends run for one statement of each sharded benchmark (MariaDB's general log). */
public final class Probe {
    public static void main(String[] args) throws Exception {
        EmbeddedBenchmark.Database database = new EmbeddedBenchmark.Database();
        database.start();
        EmbeddedBenchmark.Sharded sharded = new EmbeddedBenchmark.Sharded();
        sharded.target = args.length > 0 ? args[0] : "strata";
        sharded.open(database);
        DataSource ds = sharded.dataSource;
        try (Connection root = database.server.connect("bench_0", "bench", "bench"); Statement st = root.createStatement()) {
            st.execute("SET GLOBAL log_output = 'TABLE'");
            st.execute("SET GLOBAL general_log = 1");
        }
        try (Connection c = ds.getConnection(); PreparedStatement p = c.prepareStatement(
                "SELECT order_id, amount FROM t_order WHERE amount > ? ORDER BY amount, order_id LIMIT 10")) {
            p.setInt(1, 500);
            int n = 0;
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    n++;
                }
            }
            System.out.println("rows " + n);
        }
        if (args.length > 1) {
            try (Connection root = database.server.connect("bench_0", "bench", "bench");
                 Statement st = root.createStatement()) {
                st.execute("SET GLOBAL general_log = 0");
            }
            for (int round = 0; round < 5; round++) {
                long start = System.nanoTime();
                int n = Integer.parseInt(args[1]);
                for (int i = 0; i < n; i++) {
                    try (Connection c = ds.getConnection(); PreparedStatement p = c.prepareStatement(
                            "SELECT order_id, amount FROM t_order WHERE amount > ? ORDER BY amount, order_id LIMIT 10")) {
                        p.setInt(1, i % 900);
                        try (ResultSet rs = p.executeQuery()) {
                            while (rs.next()) {
                                rs.getLong(1);
                            }
                        }
                    }
                }
                System.out.println("round " + round + ": " + (System.nanoTime() - start) / n / 1000 + " us/op");
            }
            try (Connection root = database.server.connect("bench_0", "bench", "bench");
                 Statement st = root.createStatement()) {
                st.execute("TRUNCATE mysql.general_log");
                st.execute("SET GLOBAL general_log = 1");
            }
            try (Connection c = ds.getConnection(); PreparedStatement p = c.prepareStatement(
                    "SELECT order_id, amount FROM t_order WHERE amount > ? ORDER BY amount, order_id LIMIT 10")) {
                p.setInt(1, 7);
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) {
                        rs.getLong(1);
                    }
                }
            }
            try (Connection root = database.server.connect("bench_0", "bench", "bench");
                 Statement st = root.createStatement();
                 ResultSet rs = st.executeQuery("SELECT event_time, argument FROM mysql.general_log")) {
                while (rs.next()) {
                    System.out.println("later: " + rs.getString(1) + " " + rs.getString(2));
                }
            }
        }
        try (Connection root = database.server.connect("bench_0", "bench", "bench"); Statement st = root.createStatement();
             ResultSet rs = st.executeQuery("SELECT command_type, argument FROM mysql.general_log LIMIT 0")) {
            while (rs.next()) {
                System.out.println(rs.getString(1) + " | " + rs.getString(2));
            }
        }
        sharded.close();
        database.stop();
    }
}
