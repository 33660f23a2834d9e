package io.strata.backend.execute;

import io.strata.backend.connection.StateSync;
import io.strata.protocol.Charsets;

import java.util.HashMap;
import java.util.Map;

/**
 * What a backend connection is given before it runs a session's statement, so that it behaves as the session's
 * own server session would: the character set (SET NAMES, from the login's collation until the session changes
 * it) and the tracked session variables the session set, with the values the server reported.
 */
public final class SessionVariables {

    /** What SET NAMES takes to give a connection the collation of the client's handshake. */
    private String loginNames;
    /** What SET NAMES takes to give a connection the session's character set: {@code x} or {@code x COLLATE y}. */
    private String names;
    private String charset;
    private final Map<String, String> variables = new HashMap<>();

    /** After a login with the handshake's collation: that character set, no variable set. */
    public void login(int collationId) {
        loginNames = Charsets.namesOfCollation(collationId);
        reset();
    }

    /** COM_RESET_CONNECTION: the login's character set again, no variable set. */
    public void reset() {
        names(loginNames);
        variables.clear();
    }

    /** The tracked session variables this session set, by lower-case name. */
    public Map<String, String> variables() {
        return variables;
    }

    /** The session's character set (without the collation of a {@code SET NAMES x COLLATE y}). */
    public String charset() {
        return charset;
    }

    /** What SET NAMES takes to give a connection the session's character set: {@code x} or {@code x COLLATE y}. */
    public String names() {
        return names;
    }

    /** SET NAMES: the server sets character_set_results and collation_connection with it. */
    public void names(String names) {
        this.names = names;
        this.charset = Charsets.ofNames(names);
        variables.keySet().removeAll(StateSync.SET_BY_NAMES);
    }

    /**
     * The collation id the server gives the definitions of text columns it makes (like {@code DATABASE()}'s):
     * character_set_results's, which {@code SET NAMES x COLLATE y} gives y; when that variable is NULL, the system
     * character set's (utf8mb3), in which the server then leaves metadata.
     */
    public int resultsCollation() {
        if (!variables.containsKey("character_set_results")) {
            return Charsets.collationOfNames(names);
        }
        String results = variables.get("character_set_results");
        return Charsets.defaultCollation(results == null ? "utf8mb3" : results);
    }

    /** Whether the session set itself read-only (transaction_read_only, or MariaDB's and MySQL 5's tx_read_only). */
    public boolean readOnly() {
        return on(variables.get("tx_read_only")) || on(variables.get("transaction_read_only"));
    }

    private static boolean on(String value) {
        return "1".equals(value) || "ON".equalsIgnoreCase(value);
    }
}
