package io.strata.it;

import io.strata.it.StrataFixture.Driver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** LOAD DATA LOCAL INFILE through Strata: the file is the client's, never one on Strata's host. */
class LocalInfileIT {

    private static StrataFixture strata;

    @BeforeAll
    static void start() throws Exception {
        Backend.execute("DROP TABLE IF EXISTS loaded", "CREATE TABLE loaded (id INT PRIMARY KEY, name VARCHAR(20))");
        strata = StrataFixture.start();
    }

    @AfterAll
    static void stop() {
        strata.close();
    }

    /**
     * A client that does not offer to send files names a file that exists where Strata runs: the statement fails as
     * it does on the server itself (MariaDB's 4166, MySQL's 1148), and Strata (or a driver inside it) never reads that
     * file into the table.
     */
    @Test
    void aFileOnStratasHostIsNeverRead(@TempDir Path dir) throws Exception {
        Path secret = Files.writeString(dir.resolve("secret.csv"), "1,secret\n2,secret\n");
        // MySQL Connector/J sends the statement as it is (MariaDB's driver would refuse it before sending)
        try (Connection connection = strata.connect(Driver.MYSQL, "it", "root", "root", new Properties());
             Statement statement = connection.createStatement()) {
            SQLException refused = assertThrows(SQLException.class, () -> statement.execute(
                    "LOAD DATA LOCAL INFILE '" + secret + "' INTO TABLE loaded FIELDS TERMINATED BY ','"));
            assertTrue(refused.getErrorCode() == 4166 || refused.getErrorCode() == 1148, refused.getMessage());
            try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM loaded")) {
                assertTrue(rows.next());
                assertEquals(0, rows.getInt(1));
            }
        }
    }
}
