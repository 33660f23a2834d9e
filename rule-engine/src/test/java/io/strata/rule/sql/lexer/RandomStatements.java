package io.strata.rule.sql.lexer;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random SELECT, INSERT and UPDATE statements that JSqlParser reads, made to stress a lexer: string literals holding
 * quotes, escapes, backslashes and comment markers, backquoted names with odd characters, comments of every form
 * between tokens, numbers and placeholders. Seeded, so a failure names a statement that comes back.
 *
 * <p>JSqlParser 5.4 ends a double-quoted string at a backslash-escaped double quote ({@code "a\"b"}), which MySQL
 * does not: {@link #forJSqlParser} leaves that form out.
 *
 * <p>A comment never stands inside a function call, between a sign and its number or between two strings: there the
 * digest read spaces only before the lexer (see the lexer's commit), and these statements compare old and new.
 */
public final class RandomStatements {

    private static final String[] NAMES = {"id", "name", "t_order", "user_id", "c1", "Status", "naïve", "名前",
        "`my col`", "`a``b`", "`sel;ect`", "`x--y`", "`/*c*/`", "`it's`", "`q\"q`", "`#h`", "`名 前`", "`😀`"};
    private static final String[] TABLES = {"t", "t_order", "`t order`", "db.t", "`db`.`t``x`", "sbtest1"};
    private static final String[] SINGLE_PARTS = {"abc", " ", "''", "\\'", "\\\\", "\\n", "--", "-- ", "/*", "*/",
        "#", ";", "`", "\"", "?", "@x", "名", "😀", "%", "_", "/*!40101 x */", "\\\"", "a\\tb"};
    private static final String[] DOUBLE_PARTS = {"abc", " ", "\"\"", "\\\"", "\\\\", "'", "--", "/*", "*/", "#",
        ";", "?", "é"};
    private static final String[] NUMBERS = {"0", "7", "42", "5021", "1.5", "0.25", "-3", "-2.5", "1e3", "0x1F",
        "18446744073709551615"};
    private static final String[] COMMENTS = {" /* c */ ", " /* it's; \"q\" */ ", " -- c 'x\n", " # c `y\n",
        " /**/ ", "\n", "\t", "  ", " /* -- # */ "};
    private static final String[] OPERATORS = {"=", "<>", "!=", ">=", "<=", "<", ">", "LIKE"};

    private final Random random;
    private final String[] doubleParts;

    public RandomStatements(long seed) {
        this(seed, DOUBLE_PARTS);
    }

    private RandomStatements(long seed, String[] doubleParts) {
        this.random = new Random(seed);
        this.doubleParts = doubleParts;
    }

    /** Statements without the one form JSqlParser reads otherwise than MySQL: {@code \"} in a double-quoted string. */
    public static RandomStatements forJSqlParser(long seed) {
        return new RandomStatements(seed, java.util.Arrays.stream(DOUBLE_PARTS)
                .filter(part -> !part.equals("\\\"")).toArray(String[]::new));
    }

    /** The next statement. */
    public String next() {
        List<String> units = switch (random.nextInt(3)) {
            case 0 -> select();
            case 1 -> insert();
            default -> update();
        };
        StringBuilder sql = new StringBuilder(random.nextInt(6) == 0 ? pick(COMMENTS).stripLeading() : "");
        for (int i = 0; i < units.size(); i++) {
            if (i > 0) {
                sql.append(random.nextInt(4) == 0 ? pick(COMMENTS) : " ");
            }
            sql.append(units.get(i));
        }
        if (random.nextInt(5) == 0) {
            sql.append(random.nextBoolean() ? " -- end" : " /* end */");
        }
        return sql.toString();
    }

    private List<String> select() {
        List<String> units = new ArrayList<>(List.of("SELECT"));
        if (random.nextInt(8) == 0) {
            units.add("DISTINCT");
        }
        int items = 1 + random.nextInt(3);
        for (int i = 0; i < items; i++) {
            if (i > 0) {
                units.add(",");
            }
            switch (random.nextInt(5)) {
                case 0 -> units.add(value());
                case 1 -> units.add("COUNT(*)");
                case 2 -> units.add("t." + plainOrQuoted());
                default -> units.add(name());
            }
        }
        units.add("FROM");
        units.add(pick(TABLES));
        where(units);
        if (random.nextInt(3) == 0) {
            units.addAll(List.of("ORDER", "BY", name()));
        }
        if (random.nextInt(3) == 0) {
            units.addAll(List.of("LIMIT", random.nextBoolean() ? "?" : "10"));
        }
        return units;
    }

    private List<String> insert() {
        List<String> units = new ArrayList<>(List.of("INSERT", "INTO", pick(TABLES), "("));
        int width = 1 + random.nextInt(3);
        for (int i = 0; i < width; i++) {
            units.add(i == 0 ? name() : ",");
            if (i > 0) {
                units.add(name());
            }
        }
        units.add(")");
        units.add("VALUES");
        int rows = 1 + random.nextInt(3);
        for (int r = 0; r < rows; r++) {
            units.add(r == 0 ? "(" : ", (");
            for (int i = 0; i < width; i++) {
                if (i > 0) {
                    units.add(",");
                }
                units.add(value());
            }
            units.add(")");
        }
        return units;
    }

    private List<String> update() {
        List<String> units = new ArrayList<>(List.of("UPDATE", pick(TABLES), "SET"));
        int sets = 1 + random.nextInt(3);
        for (int i = 0; i < sets; i++) {
            if (i > 0) {
                units.add(",");
            }
            units.addAll(List.of(name(), "=", value()));
        }
        where(units);
        return units;
    }

    private void where(List<String> units) {
        if (random.nextInt(4) == 0) {
            return;
        }
        units.add("WHERE");
        int conditions = 1 + random.nextInt(3);
        for (int i = 0; i < conditions; i++) {
            if (i > 0) {
                units.add(random.nextBoolean() ? "AND" : "OR");
            }
            units.add(name());
            if (random.nextInt(4) == 0) {
                units.addAll(List.of("IN", "(", value(), ",", value(), ")"));
            } else {
                units.addAll(List.of(pick(OPERATORS), value()));
            }
        }
    }

    private String value() {
        return switch (random.nextInt(6)) {
            case 0, 1 -> singleQuoted();
            case 2 -> doubleQuoted();
            case 3 -> pick(NUMBERS);
            case 4 -> "?";
            default -> random.nextBoolean() ? "NULL" : "_utf8mb4" + singleQuoted();
        };
    }

    private String name() {
        return random.nextInt(3) == 0 ? plainOrQuoted() : pick(new String[] {"id", "name", "user_id", "c1"});
    }

    private String plainOrQuoted() {
        return pick(NAMES);
    }

    private String singleQuoted() {
        return quoted('\'', SINGLE_PARTS);
    }

    private String doubleQuoted() {
        return quoted('"', doubleParts);
    }

    private String quoted(char quote, String[] parts) {
        StringBuilder text = new StringBuilder().append(quote);
        int length = random.nextInt(5);
        for (int i = 0; i < length; i++) {
            text.append(pick(parts));
        }
        return text.append(quote).toString();
    }

    private String pick(String[] choices) {
        return choices[random.nextInt(choices.length)];
    }
}
