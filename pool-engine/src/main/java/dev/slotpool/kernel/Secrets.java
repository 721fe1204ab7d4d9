package dev.slotpool.kernel;

import dev.slotpool.JdbcUrls;
import dev.slotpool.OriginConfig;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Copies driver exceptions with secrets removed before they are kept, chained into a timeout or logged: every
 * secret the origin was given (its password, the values of its secret connection properties such as
 * {@code sslpassword} or a wallet password, the credentials in its URL) is replaced wherever it appears, and URLs
 * lose their credentials.
 */
public final class Secrets {

    private Secrets() {
    }

    /** A copy of {@code ex} and its causes (messages redacted, SQLState, vendor code and stack kept), its
     * message prefixed with the origin and {@code what} failed. */
    public static SQLException sanitize(Throwable ex, OriginConfig origin, String what) {
        List<String> secrets = secretsOf(origin);
        // A driver's Error or RuntimeException is named: its message alone ("com/acme/Foo") says too little.
        String type = ex instanceof SQLException ? "" : ex.getClass().getName() + ": ";
        return copy(ex, secrets, "origin '" + origin.name() + "': " + what + ": " + type);
    }

    /** A copy of {@code ex} and its causes with {@code secrets} removed from every message (SQLState, vendor code
     * and stack kept), for a secret the origin's configuration does not hold (a provided password). A driver's
     * Error or RuntimeException keeps its type's name in the message, as {@link #sanitize} writes it. */
    public static SQLException scrub(Throwable ex, List<String> secrets) {
        return copy(ex, secrets, ex instanceof SQLException ? "" : ex.getClass().getName() + ": ");
    }

    private static SQLException copy(Throwable ex, List<String> secrets, String prefix) {
        SQLException out = new SQLException(prefix + redact(ex.getMessage(), secrets),
                ex instanceof SQLException s ? s.getSQLState() : "08001",
                ex instanceof SQLException s ? s.getErrorCode() : 0);
        out.setStackTrace(ex.getStackTrace());
        Throwable cause = ex.getCause();
        Throwable tail = out;
        for (int depth = 0; cause != null && cause != ex && depth < 8; depth++, cause = cause.getCause()) {
            // SQLState and vendor code stay: they classify the failure (a refused login backs off at once).
            Throwable copy = new SQLException(cause.getClass().getName() + ": "
                    + redact(cause.getMessage(), secrets),
                    cause instanceof SQLException s ? s.getSQLState() : null,
                    cause instanceof SQLException s ? s.getErrorCode() : 0);
            copy.setStackTrace(cause.getStackTrace());
            tail.initCause(copy);
            tail = copy;
        }
        return out;
    }

    /** Every secret value the origin was given, longest first (so a secret containing another goes whole). */
    static List<String> secretsOf(OriginConfig origin) {
        List<String> secrets = new ArrayList<>();
        add(secrets, origin.password());
        for (Map.Entry<String, String> p : origin.connectionProperties().entrySet()) {
            if (JdbcUrls.isSecretKey(p.getKey())) {
                add(secrets, p.getValue());
            }
        }
        JdbcUrls.secretsOf(origin.url()).forEach(s -> add(secrets, s));
        secrets.sort(Comparator.comparingInt(String::length).reversed());
        return secrets;
    }

    private static void add(List<String> secrets, String value) {
        if (value != null && !value.isEmpty()) {
            secrets.add(value);
        }
    }

    static String redact(String message, List<String> secrets) {
        if (message == null) {
            return "(no message)";
        }
        String m = message;
        for (String secret : secrets) {
            m = m.replace(secret, "***");
        }
        return JdbcUrls.redact(m);
    }
}
