package io.strata.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ConfigExceptionTest {

    @Test
    void namesFileKeyExpectationAndTheValueFound() {
        var error = new ConfigException("conf/config-sbtest.yaml", "dataSources.ds_0.url",
                "a JDBC URL like jdbc:mariadb://host:3306/schema", 42);

        assertEquals("conf/config-sbtest.yaml: dataSources.ds_0.url: expected a JDBC URL like "
                + "jdbc:mariadb://host:3306/schema, got '42'", error.getMessage());
        assertEquals("conf/config-sbtest.yaml", error.file());
        assertEquals("dataSources.ds_0.url", error.key());
    }

    @Test
    void saysSoWhenTheValueIsMissing() {
        var error = new ConfigException("conf/server.yaml", "users", "a non-empty list of users", null);

        assertEquals("conf/server.yaml: users: expected a non-empty list of users but it is missing",
                error.getMessage());
    }

    @Test
    void leavesTheKeyOutWhenTheWholeFileIsMeant() {
        var error = new ConfigException("conf/server.yaml", "", "a YAML file", null);

        assertEquals("conf/server.yaml: expected a YAML file but it is missing", error.getMessage());
    }
}
