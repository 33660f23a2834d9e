package io.strata.backend.connection;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.strata.backend.relay.ResponseKind;
import io.strata.backend.relay.ResponseListener;
import io.strata.backend.relay.ResponseSummary;
import io.strata.protocol.CommandType;
import io.strata.protocol.MySQLException;

import io.strata.protocol.MySQLBuf;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;

/**
 * Makes a pooled connection's server-side session equal to what a client session expects before its command runs
 * (schema, character set, multi-statement option), and resets connections that sessions leave with state on them.
 * Each step is one round trip, taken only when the connection differs.
 */
public final class StateSync {

    /** The tracked variables SET NAMES sets along with the character set. */
    public static final java.util.List<String> SET_BY_NAMES = java.util.List.of("character_set_results",
            "collation_connection");
    /**
     * Two names for one variable (MariaDB 11.1+ knows both and warns of the tx_ ones; older MariaDB knows only those,
     * MySQL 8 only the others).
     */
    private static final Map<String, String> ALIASES = Map.of("tx_isolation", "transaction_isolation",
            "transaction_isolation", "tx_isolation", "tx_read_only", "transaction_read_only",
            "transaction_read_only", "tx_read_only");
    private static final java.util.regex.Pattern VERSION = java.util.regex.Pattern.compile("^(\\d+)\\.(\\d+)\\.(\\d+)");
    private static final int OPTION_MULTI_STATEMENTS_ON = 0;
    private static final int OPTION_MULTI_STATEMENTS_OFF = 1;

    private StateSync() {
    }

    /** Whether the connection already is in the session's state (the common case: no round trip, no future). */
    public static boolean inSync(BackendConnection connection, String schema, String names,
                                 boolean multiStatements, boolean autocommit, Map<String, String> variables) {
        return (schema == null || schema.isEmpty() || schema.equals(connection.schema()))
                && sameNames(names, connection.names()) && multiStatements == connection.multiStatements()
                && autocommit == connection.autocommit() && variables.equals(connection.variables());
    }

    /**
     * Whether the connection's character set (and SET NAMES collation) is the session's. A connection set by this
     * session or one with the same set holds the very same string, so the case-blind comparison runs only after the
     * set changed.
     */
    static boolean sameNames(String session, String connection) {
        return session == connection || session != null && session.equalsIgnoreCase(connection);
    }

    /**
     * @param schema the backend schema to be in, or null/empty to leave it
     * @param names  what SET NAMES takes for the session's character set: {@code x} or {@code x COLLATE y}
     * @param autocommit the session's autocommit; a pooled connection is never inside a transaction, so setting it
     *                   commits nothing
     */
    public static CompletableFuture<BackendConnection> sync(BackendConnection connection, String schema,
                                                            String names, boolean multiStatements,
                                                            boolean autocommit, Map<String, String> variables) {
        CompletableFuture<BackendConnection> done = CompletableFuture.completedFuture(connection);
        ByteBufAllocator alloc = connection.channel().alloc();
        if (schema != null && !schema.isEmpty() && !schema.equals(connection.schema())) {
            done = done.thenCompose(c -> run(c, command(alloc, CommandType.COM_INIT_DB, schema)))
                    .thenApply(c -> {
                        c.schema(schema);
                        return c;
                    });
        }
        Map<String, String> current = connection.variables();
        if (!sameNames(names, connection.names()) || leftByNames(current, variables)) {
            done = done.thenCompose(c -> run(c, command(alloc, CommandType.COM_QUERY, "SET NAMES " + names)))
                    .thenApply(c -> {
                        c.names(names);
                        return c;
                    });
            current = withoutNames(current); // as they will be once the SET NAMES ran
        }
        if (!variables.equals(current)) {
            String set = setVariables(current, variables, connection.transactionNames());
            // not Map.copyOf: a variable may be NULL (MySQL Connector/J sets character_set_results = NULL)
            Map<String, String> wanted = new java.util.HashMap<>(variables);
            done = done.thenCompose(c -> run(c, command(alloc, CommandType.COM_QUERY, set))).thenApply(c -> {
                c.variables().clear();
                c.variables().putAll(wanted);
                return c;
            });
        }
        if (autocommit != connection.autocommit()) {
            // the connection follows the value from the OK's status flags (BackendConnection.autocommit)
            done = done.thenCompose(c -> run(c, command(alloc, CommandType.COM_QUERY,
                    autocommit ? "SET autocommit = 1" : "SET autocommit = 0")));
        }
        if (multiStatements != connection.multiStatements()) {
            ByteBuf payload = alloc.buffer(3).writeByte(CommandType.COM_SET_OPTION.code())
                    .writeShortLE(multiStatements ? OPTION_MULTI_STATEMENTS_ON : OPTION_MULTI_STATEMENTS_OFF);
            done = done.thenCompose(c -> run(c, payload)).thenApply(c -> {
                c.multiStatements(multiStatements);
                return c;
            });
        }
        return done;
    }

    /**
     * Whether {@code current} holds a variable of {@link #SET_BY_NAMES} that {@code wanted} does not: only a SET NAMES
     * undoes it, since its DEFAULT is the server's global value (latin1 on MariaDB), not the character set's.
     */
    public static boolean leftByNames(Map<String, String> current, Map<String, String> wanted) {
        for (String name : SET_BY_NAMES) {
            if (current.containsKey(name) && !wanted.containsKey(name)) {
                return true;
            }
        }
        return false;
    }

    /** The variables as they are after a SET NAMES. */
    public static Map<String, String> withoutNames(Map<String, String> variables) {
        Map<String, String> after = new java.util.HashMap<>(variables); // not Map.copyOf: a value may be NULL
        after.keySet().removeAll(SET_BY_NAMES);
        return after;
    }

    /**
     * One SET making {@code current} equal to {@code wanted}; variables only {@code current} has go back to DEFAULT
     * (for those of {@link #SET_BY_NAMES}, a SET NAMES must have run first: see {@link #leftByNames}).
     */
    public static String setVariables(Map<String, String> current, Map<String, String> wanted,
                                      boolean transactionNames) {
        StringJoiner set = new StringJoiner(", ", "SET ", "");
        for (String name : current.keySet()) {
            if (!wanted.containsKey(name)) {
                set.add("SESSION " + serverName(name, transactionNames) + " = DEFAULT");
            }
        }
        wanted.forEach((name, value) -> {
            if (!current.containsKey(name) || !java.util.Objects.equals(value, current.get(name))) {
                set.add("SESSION " + serverName(name, transactionNames) + " = " + literal(value));
            }
        });
        return set.toString();
    }

    /**
     * The name the server knows a variable by without a deprecation warning, which would otherwise be left for the
     * session's SHOW WARNINGS (the server keeps the warnings of a statement through later ones that read no table).
     *
     * @param transactionNames the server has {@code transaction_isolation} and {@code transaction_read_only}
     *                         ({@link #transactionNames(String)})
     */
    static String serverName(String name, boolean transactionNames) {
        String alias = ALIASES.get(name);
        return alias != null && alias.startsWith("transaction_") == transactionNames ? alias : name;
    }

    /**
     * Whether a server of this version (as its handshake gives it) knows the variables {@code transaction_isolation}
     * and {@code transaction_read_only}: MySQL from 5.7.20, MariaDB from 11.1 (which deprecates the tx_ names).
     */
    public static boolean transactionNames(String serverVersion) {
        if (serverVersion == null) {
            return false;
        }
        boolean mariaDb = serverVersion.contains("MariaDB");
        String version = serverVersion.startsWith("5.5.5-") ? serverVersion.substring(6) : serverVersion;
        java.util.regex.Matcher m = VERSION.matcher(version);
        if (!m.find()) {
            return false;
        }
        int major = Integer.parseInt(m.group(1));
        int minor = Integer.parseInt(m.group(2));
        int patch = Integer.parseInt(m.group(3));
        return mariaDb ? major > 11 || major == 11 && minor >= 1
                : major > 5 || major == 5 && (minor > 7 || minor == 7 && patch >= 20);
    }

    /** A value as SQL: numbers bare, text quoted (the server reported them as text). */
    static String literal(String value) {
        if (value == null) {
            return "NULL";
        }
        if (value.matches("-?\\d+(\\.\\d+)?")) {
            return value;
        }
        return "'" + value.replace("\\", "\\\\").replace("'", "''") + "'";
    }

    /**
     * Puts values read back after a SET into a session's or a connection's variables. A variable read under one name
     * drops its other name: replaying both, in whatever order, could leave the older value.
     */
    public static void follow(Map<String, String> variables, Map<String, String> read) {
        variables.putAll(read);
        for (String name : read.keySet()) {
            String alias = ALIASES.get(name);
            if (alias != null && !read.containsKey(alias)) {
                variables.remove(alias);
            }
        }
    }

    /**
     * The SELECT reading the session values of {@code names}, in that order (for either executor).
     *
     * @param transactionNames see {@link #serverName}
     */
    public static String selectVariables(List<String> names, boolean transactionNames) {
        StringJoiner select = new StringJoiner(", ", "SELECT ", "");
        names.forEach(name -> select.add("@@SESSION." + serverName(name, transactionNames)));
        return select.toString();
    }

    /**
     * Reads the session values of {@code names} on the connection (after a SET whose result Strata cannot compute,
     * e.g. {@code sql_mode = CONCAT(@@sql_mode, ...)}).
     */
    public static CompletableFuture<Map<String, String>> readVariables(BackendConnection connection,
                                                                       List<String> names) {
        List<byte[]> packets = new ArrayList<>();
        CompletableFuture<Map<String, String>> result = new CompletableFuture<>();
        ByteBuf query = command(connection.channel().alloc(), CommandType.COM_QUERY,
                selectVariables(names, connection.transactionNames()));
        connection.execute(query, ResponseKind.QUERY, new ResponseListener() {
            @Override
            public void onPacket(ByteBuf packet) {
                byte[] bytes = new byte[packet.readableBytes() - 4];
                packet.getBytes(packet.readerIndex() + 4, bytes);
                packets.add(bytes);
                packet.release();
            }

            @Override
            public void onComplete(ResponseSummary summary) {
                if (summary.failed() || packets.size() < 3) {
                    result.completeExceptionally(new IllegalStateException("cannot read session variables "
                            + names + (summary.failed() ? ": " + summary.error().message() : "")));
                    return;
                }
                // The row is the packet before the terminator, with or without DEPRECATE_EOF.
                ByteBuf row = io.netty.buffer.Unpooled.wrappedBuffer(packets.get(packets.size() - 2));
                Map<String, String> values = new LinkedHashMap<>();
                for (String name : names) {
                    boolean isNull = row.getUnsignedByte(row.readerIndex()) == 0xFB;
                    if (isNull) {
                        row.skipBytes(1);
                    }
                    values.put(name, isNull ? null : MySQLBuf.readStringLenenc(row));
                }
                result.complete(values);
            }

            @Override
            public void onFailure(Throwable cause) {
                result.completeExceptionally(cause);
            }
        });
        return result;
    }

    /** COM_RESET_CONNECTION: rolls back, drops temporary tables, user variables, locks; the connection is clean. */
    public static CompletableFuture<BackendConnection> reset(BackendConnection connection) {
        ByteBuf payload = connection.channel().alloc().buffer(1).writeByte(CommandType.COM_RESET_CONNECTION.code());
        return run(connection, payload).thenApply(c -> {
            c.resetState();
            return c;
        });
    }

    /** KILL QUERY for the statement running on {@code running}, sent over another connection of its pool. */
    public static CompletableFuture<Void> killQuery(BackendConnection running) {
        BackendPool pool = running.pool();
        return pool.acquire(running.flavor())
                .thenCompose(killer -> run(killer, command(killer.channel().alloc(), CommandType.COM_QUERY,
                        "KILL QUERY " + running.connectionId())))
                .thenAccept(pool::release);
    }

    /** Runs a command whose response Strata consumes itself; fails with the backend's own error. */
    public static CompletableFuture<BackendConnection> run(BackendConnection connection, ByteBuf payload) {
        return summary(connection, payload).thenApply(summary -> connection);
    }

    /**
     * The server's status flags (in a transaction, autocommit...), read with COM_PING, which changes nothing else of
     * the session: not its warnings, ROW_COUNT() or FOUND_ROWS().
     */
    public static CompletableFuture<Integer> status(BackendConnection connection) {
        ByteBuf ping = connection.channel().alloc().buffer(1).writeByte(CommandType.COM_PING.code());
        return summary(connection, ping).thenApply(ResponseSummary::statusFlags);
    }

    /** Runs a one-packet-answer command whose response Strata reads itself; fails with the backend's own error. */
    private static CompletableFuture<ResponseSummary> summary(BackendConnection connection, ByteBuf payload) {
        CompletableFuture<ResponseSummary> result = new CompletableFuture<>();
        connection.execute(payload, ResponseKind.STATUS, new ResponseListener() {
            @Override
            public void onPacket(ByteBuf packet) {
                packet.release();
            }

            @Override
            public void onComplete(ResponseSummary summary) {
                if (summary.failed()) {
                    result.completeExceptionally(new MySQLException(summary.error()));
                } else {
                    result.complete(summary);
                }
            }

            @Override
            public void onFailure(Throwable cause) {
                result.completeExceptionally(cause);
            }
        });
        return result;
    }

    public static ByteBuf command(ByteBufAllocator alloc, CommandType type, String argument) {
        return command(alloc, type, argument, StandardCharsets.UTF_8);
    }

    /** A command with its argument in {@code charset} (ISO-8859-1 gives back bytes kept one char per byte). */
    public static ByteBuf command(ByteBufAllocator alloc, CommandType type, String argument,
                                  java.nio.charset.Charset charset) {
        byte[] bytes = argument.getBytes(charset);
        return alloc.buffer(1 + bytes.length).writeByte(type.code()).writeBytes(bytes);
    }
}
