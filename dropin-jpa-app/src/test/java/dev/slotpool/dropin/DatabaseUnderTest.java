package dev.slotpool.dropin;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The database that the tests which keep the application's database run on, chosen by the system property
 * {@code dropin.database} (the compatibility matrix in {@code .ci/run} sets it): {@code h2} (the default, from
 * application.properties), {@code hsqldb} or {@code postgresql}, an embedded server started once for the whole
 * test run. Registered as a JUnit launcher session listener, so the server is up before any Spring context.
 */
public class DatabaseUnderTest implements LauncherSessionListener {

    static final String PROPERTY = "dropin.database";

    private EmbeddedPostgres postgres;

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        String database = System.getProperty(PROPERTY, "h2");
        switch (database) {
            case "h2" -> { }
            case "hsqldb" -> datasource("jdbc:hsqldb:mem:dropin", "SA", "");
            case "postgresql" -> {
                try {
                    postgres = EmbeddedPostgres.builder().start();
                } catch (IOException e) {
                    throw new UncheckedIOException("starting the embedded PostgreSQL server", e);
                }
                datasource(postgres.getJdbcUrl("postgres", "postgres"), "postgres", "");
            }
            default -> throw new IllegalArgumentException(
                    PROPERTY + " must be h2, hsqldb or postgresql, not '" + database + "'");
        }
    }

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        if (postgres != null) {
            try {
                postgres.close();
            } catch (IOException e) {
                throw new UncheckedIOException("stopping the embedded PostgreSQL server", e);
            }
        }
    }

    private static void datasource(String url, String username, String password) {
        System.setProperty("spring.datasource.url", url);
        System.setProperty("spring.datasource.username", username);
        System.setProperty("spring.datasource.password", password);
    }
}
