package io.strata.it;

import io.strata.bootstrap.sandbox.EmbeddedMariaDb;
import io.strata.config.StrataConfig;
import io.strata.jdbc.StrataDataSource;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Transaction;
import org.hibernate.cfg.Configuration;
import org.jooq.DSLContext;
import org.jooq.Record2;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Hibernate 6 and jOOQ over the embedded driver, on a table sharded by user over two MariaDB servers: Hibernate creates
 * the tables itself ({@code hbm2ddl.auto=update}, then again finding them there), persists, finds, updates, pages
 * with JPQL over both shards, and rolls back a transaction across them; jOOQ reads with its own SQL. What each did is
 * read on the servers.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EmbeddedOrmIT {

    private static final String SCHEMA_A = "orm_a";
    private static final String SCHEMA_B = "orm_b";
    private static final String RULES = """
            - type: SHARDING
              tables:
                t_account:
                  actualDataNodes: ds_${0..1}.t_account
                  databaseStrategy: { standard: { shardingColumn: user_id, shardingAlgorithmName: by_user } }
              shardingAlgorithms:
                by_user: { type: MOD, props: { sharding-count: 2 } }
            """;

    /**
     * An account of a user; the user picks the data source. A sharding column is not updatable (its rows would move
     * to another shard): Hibernate would otherwise set it, to its same value, in every UPDATE, which Strata refuses
     * as ShardingSphere does.
     */
    @Entity
    @Table(name = "t_account")
    public static class Account {
        @Id
        private Long id;
        @Column(name = "user_id", nullable = false, updatable = false)
        private int userId;
        @Column(length = 40)
        private String name;
        @Column(precision = 12, scale = 2)
        private BigDecimal balance;

        protected Account() {
        }

        Account(long id, int userId, String name, String balance) {
            this.id = id;
            this.userId = userId;
            this.name = name;
            this.balance = new BigDecimal(balance);
        }
    }

    private static EmbeddedMariaDb serverA;
    private static EmbeddedMariaDb serverB;
    private static StrataDataSource strata;

    @BeforeAll
    static void start() throws SQLException {
        serverA = Backend.server();
        serverA.createDatabase(SCHEMA_A, "strata", "strata");
        serverB = EmbeddedMariaDb.start(0);
        serverB.createDatabase(SCHEMA_B, "strata", "strata");
        serverA.execute(SCHEMA_A, "strata", "strata", "DROP TABLE IF EXISTS t_account");
        StrataConfig config = StrataFixture.shop(serverA, SCHEMA_A, serverB, SCHEMA_B, RULES);
        strata = new StrataDataSource(config, "shop");
    }

    @AfterAll
    static void stop() {
        if (strata != null) {
            strata.close();
        }
        if (serverB != null) {
            serverB.close();
        }
    }

    private static SessionFactory hibernate() {
        Configuration configuration = new Configuration().addAnnotatedClass(Account.class)
                .setProperty("hibernate.hbm2ddl.auto", "update");
        configuration.getProperties().put("hibernate.connection.datasource", strata);
        return configuration.buildSessionFactory();
    }

    @Test
    @Order(1)
    void hibernateCreatesWritesPagesAndRollsBackAcrossShards() throws SQLException {
        try (SessionFactory first = hibernate()) {
            first.inTransaction(session -> {
                for (int i = 1; i <= 10; i++) {
                    session.persist(new Account(i, i % 3, "account " + i, i * 10 + ".50"));
                }
            });
        }
        // the table exists on both servers, holding the rows of its users: 0 and 2 on ds_0, 1 on ds_1
        assertEquals(6, count(serverA, SCHEMA_A, "1 = 1"));
        assertEquals(4, count(serverB, SCHEMA_B, "1 = 1"));

        try (SessionFactory second = hibernate(); Session session = second.openSession()) { // finds the table there
            Account four = session.find(Account.class, 4L);
            assertEquals("account 4", four.name);
            Transaction tx = session.beginTransaction();
            four.balance = new BigDecimal("99.99");
            tx.commit();
            assertEquals(1, count(serverB, SCHEMA_B, "id = 4 AND balance = 99.99"));

            List<Long> page = session.createQuery("select a.id from EmbeddedOrmIT$Account a order by a.balance desc, "
                    + "a.id", Long.class).setFirstResult(2).setMaxResults(3).getResultList();
            assertEquals(List.of(9L, 8L, 7L), page); // after 10 (100.50) and 4 (99.99)
            assertEquals(10L, session.createQuery("select count(a) from EmbeddedOrmIT$Account a", Long.class)
                    .getSingleResult());

            tx = session.beginTransaction();
            session.persist(new Account(11, 0, "ds_0", "1"));
            session.persist(new Account(12, 1, "ds_1", "1"));
            session.flush();
            tx.rollback();
            session.clear();
            assertNull(session.find(Account.class, 11L));
        }
        assertEquals(0, count(serverA, SCHEMA_A, "id > 10") + count(serverB, SCHEMA_B, "id > 10"));
    }

    @Test
    @Order(2)
    void jooqReadsWithItsOwnSql() throws SQLException {
        try (Connection c = strata.getConnection(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS t_account (id BIGINT PRIMARY KEY, user_id INT NOT NULL, "
                    + "name VARCHAR(40), balance DECIMAL(12,2))");
            st.executeUpdate("DELETE FROM t_account WHERE id >= 100");
            DSLContext jooq = DSL.using(c, SQLDialect.MARIADB);
            for (int i = 100; i < 106; i++) {
                jooq.insertInto(DSL.table("t_account"), DSL.field("id"), DSL.field("user_id"), DSL.field("name"),
                        DSL.field("balance")).values(i, i % 2, "j" + i, new BigDecimal(i)).execute();
            }
            List<Record2<Object, Integer>> rows = jooq.select(DSL.field("user_id"), DSL.count())
                    .from(DSL.table("t_account")).where(DSL.field("id").ge(100))
                    .groupBy(DSL.field("user_id")).orderBy(DSL.field("user_id")).fetch();
            assertEquals(2, rows.size());
            assertEquals(3, rows.get(0).value2());
            assertEquals(3, rows.get(1).value2());
            st.executeUpdate("DELETE FROM t_account WHERE id >= 100");
        }
        assertEquals(0, count(serverA, SCHEMA_A, "id >= 100") + count(serverB, SCHEMA_B, "id >= 100"));
    }

    private static int count(EmbeddedMariaDb server, String schema, String where) throws SQLException {
        try (Connection c = server.connect(schema, "strata", "strata"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM t_account WHERE " + where)) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
