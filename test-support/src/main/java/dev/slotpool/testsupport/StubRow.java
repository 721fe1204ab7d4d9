package dev.slotpool.testsupport;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The one row a stub query returns: {@link #ONE} (the integer 1 in a single column that answers to any label) or a
 * row scripted with {@link StubDatabase#answer}. Converts its values as the JDBC getters ask.
 */
record StubRow(List<String> labels, List<Object> values) {

    /** What {@code SELECT 1} returns; its column answers to every label. */
    static final StubRow ONE = new StubRow(List.of(), List.of(1));

    static StubRow of(Map<String, ?> row) {
        if (row.isEmpty()) {
            throw new IllegalArgumentException("a scripted row needs at least one column");
        }
        List<String> labels = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        row.forEach((label, value) -> {
            labels.add(label.toLowerCase(Locale.ROOT));
            values.add(value);
        });
        return new StubRow(List.copyOf(labels), Collections.unmodifiableList(values));
    }

    int columns() {
        return values.size();
    }

    /** The 1-based index of the label; {@link #ONE}'s only column answers to any label. */
    int find(String label) throws SQLException {
        if (labels.isEmpty()) {
            return 1;
        }
        int i = labels.indexOf(label.toLowerCase(Locale.ROOT));
        if (i < 0) {
            throw new SQLException("no column labelled " + label, "42703");
        }
        return i + 1;
    }

    Object value(int index) {
        return values.get(index - 1);
    }

    static long toLong(Object v) throws SQLException {
        if (v == null) {
            return 0;
        }
        if (v instanceof Number n) {
            return n.longValue();
        }
        if (v instanceof Boolean b) {
            return b ? 1 : 0;
        }
        try {
            return new BigDecimal(v.toString().trim()).longValue();
        } catch (NumberFormatException e) {
            throw new SQLException("not a number: " + v, "22018");
        }
    }

    static double toDouble(Object v) throws SQLException {
        if (v == null) {
            return 0;
        }
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        try {
            return Double.parseDouble(v.toString().trim());
        } catch (NumberFormatException e) {
            throw new SQLException("not a number: " + v, "22018");
        }
    }

    static BigDecimal toBigDecimal(Object v) throws SQLException {
        if (v == null) {
            return null;
        }
        if (v instanceof BigDecimal d) {
            return d;
        }
        try {
            return new BigDecimal(v.toString().trim());
        } catch (NumberFormatException e) {
            throw new SQLException("not a number: " + v, "22018");
        }
    }

    /** As PostgreSQL's and Oracle's drivers read booleans: true, t, on, yes, y, or a non-zero number. */
    static boolean toBoolean(Object v) throws SQLException {
        if (v == null) {
            return false;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof Number n) {
            return n.doubleValue() != 0;
        }
        String s = v.toString().trim().toLowerCase(Locale.ROOT);
        return switch (s) {
            case "true", "t", "on", "yes", "y", "1" -> true;
            case "false", "f", "off", "no", "n", "0" -> false;
            default -> throw new SQLException("not a boolean: " + v, "22018");
        };
    }
}
