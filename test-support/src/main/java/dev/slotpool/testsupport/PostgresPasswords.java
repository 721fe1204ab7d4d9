package dev.slotpool.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Makes an embedded PostgreSQL server check passwords over TCP (it trusts everyone by default), so tests can
 * see a wrong password refused: every role but {@code postgres} logs in with scram-sha-256.
 */
public final class PostgresPasswords {

    private PostgresPasswords() {
    }

    /**
     * Rewrites the server's {@code pg_hba.conf} through a superuser connection and asks it to reload. The reload
     * is asynchronous: the caller waits until a wrong password is refused.
     */
    public static void require(Connection superuser) throws SQLException, IOException {
        try (Statement st = superuser.createStatement()) {
            String hba;
            try (ResultSet rs = st.executeQuery("SHOW hba_file")) {
                rs.next();
                hba = rs.getString(1);
            }
            Files.writeString(Path.of(hba), """
                    local all all trust
                    host all postgres 127.0.0.1/32 trust
                    host all postgres ::1/128 trust
                    host all all 127.0.0.1/32 scram-sha-256
                    host all all ::1/128 scram-sha-256
                    """);
            st.execute("SELECT pg_reload_conf()");
        }
    }
}
