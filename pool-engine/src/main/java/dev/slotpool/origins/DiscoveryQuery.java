package dev.slotpool.origins;

import dev.slotpool.OriginConfig;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/** A discovery source's {@code originQuery} on a new connection: which server it landed on ({@link Origins#landed}). */
final class DiscoveryQuery {

    /** The server's name and its dimensions in {@link OriginSelector#DIMENSIONS} order (null where not named). */
    record Answer(String name, String[] dimensions) {
    }

    private DiscoveryQuery() {
    }

    /** Runs the query of {@code via} on {@code c} and rolls back what it began. */
    static Answer run(Origin via, Connection c, int timeoutSeconds) throws SQLException {
        String name;
        String[] dims = new String[4];
        try (Statement st = c.createStatement()) {
            st.setQueryTimeout(timeoutSeconds);
            try (ResultSet rs = st.executeQuery(via.config.originQuery())) {
                if (!rs.next() || rs.getString(1) == null || rs.getString(1).isBlank()) {
                    throw new SQLException("origin '" + via.name + "': the discovery query returned no origin name");
                }
                name = rs.getString(1).trim();
                String problem = OriginConfig.nameProblem(name);
                if (problem != null) {
                    String shown = name.substring(0, Math.min(name.length(), 100)).replaceAll("[^\\x20-\\x7e]", "?");
                    throw new SQLException("origin '" + via.name + "': the discovery query returned the origin name '"
                            + shown + "', which " + problem);
                }
                ResultSetMetaData md = rs.getMetaData();
                for (int i = 2; i <= md.getColumnCount(); i++) {
                    int dim = OriginSelector.DIMENSIONS.indexOf(md.getColumnLabel(i).toLowerCase(Locale.ROOT));
                    if (dim >= 0) {
                        dims[dim] = rs.getString(i);
                    }
                }
            }
        }
        if (!c.getAutoCommit()) {
            c.rollback();
        }
        return new Answer(name, dims);
    }
}
