package dev.slotpool.sample;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The shared checks against the app as configured: three in-memory H2 databases (application.yml). The test
 * reaches each database by its name in this JVM, without the pool.
 */
class H2SampleAppTest extends SampleAppTestBase {

    @Override
    public int serverConnections(String origin) throws SQLException {
        try (Connection c = connectDirectly(origin, DB_PASSWORD); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(
                     "SELECT COUNT(*) FROM INFORMATION_SCHEMA.SESSIONS WHERE SESSION_ID <> SESSION_ID()")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /** IFEXISTS: the pool created the database; this must not create an empty one of the same name. */
    @Override
    public Connection connectDirectly(String origin, String password) throws SQLException {
        return DriverManager.getConnection("jdbc:h2:mem:" + origin + ";IFEXISTS=TRUE", "sa", password);
    }
}
