package io.strata.jdbc;

import io.strata.config.StrataConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StrataUrlTest {

    @Test
    void aFileUrlReadsTheDatabaseFileAndTheServerFileBesideIt(@TempDir Path conf) throws Exception {
        Path file = Files.copy(Path.of(getClass().getResource("/embedded/config-shop.yaml").toURI()),
                conf.resolve("config-shop.yaml"));
        StrataUrl url = StrataUrl.parse("jdbc:strata:file:" + file);
        assertNull(url.server(), "no server.yaml beside it: the defaults");
        StrataConfig config = url.config();
        assertEquals("shop", config.databases().keySet().iterator().next());
        assertTrue(config.server().users().isEmpty());

        Files.writeString(conf.resolve("server.yaml"), "users:\n  - { name: app, password: secret }\n");
        assertEquals("app", StrataUrl.parse("jdbc:strata:file:" + file).config().server().users().get(0).name());
    }

    @Test
    void aClasspathUrlFindsItsResourceAndTheServerFileBesideIt() throws SQLException {
        StrataUrl url = StrataUrl.parse("jdbc:strata:classpath:embedded/config-shop.yaml");
        assertEquals("shop", url.config().databases().keySet().iterator().next());
        assertEquals("app", url.config().server().users().get(0).name());
    }

    @Test
    void otherUrlsAreNotOursAndWrongOnesSayWhatIsExpected() {
        StrataDriver driver = new StrataDriver();
        assertFalse(driver.acceptsURL("jdbc:mariadb://localhost/shop"));
        assertTrue(driver.acceptsURL("jdbc:strata:file:conf/config-shop.yaml"));
        SQLException wrongForm = assertThrows(SQLException.class, () -> StrataUrl.parse("jdbc:strata:conf.yaml"));
        assertTrue(wrongForm.getMessage().contains("jdbc:strata:file:<path to a config-*.yaml>"));
        SQLException missing = assertThrows(SQLException.class,
                () -> StrataUrl.parse("jdbc:strata:classpath:embedded/config-none.yaml"));
        assertTrue(missing.getMessage().contains("embedded/config-none.yaml"));
    }
}
