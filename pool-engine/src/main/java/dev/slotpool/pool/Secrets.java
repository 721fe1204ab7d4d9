package dev.slotpool.pool;

import dev.slotpool.JdbcUrls;
import dev.slotpool.OriginConfig;

import java.sql.SQLException;

/**
 * Copies driver exceptions with secrets removed before they are kept, chained into a timeout or logged: the
 * origin's password is replaced wherever it appears, and URLs lose their credentials.
 */
final class Secrets {

    private Secrets() {
    }

    /** A copy of {@code ex} and its causes (messages redacted, SQLState, vendor code and stack kept), its
     * message prefixed with the origin and {@code what} failed. */
    static SQLException sanitize(Throwable ex, OriginConfig origin, String what) {
        // A driver's Error or RuntimeException is named: its message alone ("com/acme/Foo") says too little.
        String type = ex instanceof SQLException ? "" : ex.getClass().getName() + ": ";
        SQLException out = new SQLException("origin '" + origin.name() + "': " + what + ": " + type
                + redact(ex.getMessage(), origin.password()),
                ex instanceof SQLException s ? s.getSQLState() : "08001",
                ex instanceof SQLException s ? s.getErrorCode() : 0);
        out.setStackTrace(ex.getStackTrace());
        Throwable cause = ex.getCause();
        Throwable tail = out;
        for (int depth = 0; cause != null && cause != ex && depth < 8; depth++, cause = cause.getCause()) {
            Throwable copy = new SQLException(cause.getClass().getName() + ": "
                    + redact(cause.getMessage(), origin.password()));
            copy.setStackTrace(cause.getStackTrace());
            tail.initCause(copy);
            tail = copy;
        }
        return out;
    }

    static String redact(String message, String password) {
        if (message == null) {
            return "(no message)";
        }
        String m = message;
        if (password != null && password.length() >= 1) {
            m = m.replace(password, "***");
        }
        return JdbcUrls.redact(m);
    }
}
