package dev.slotpool.e2e;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** What the embedded-PostgreSQL harnesses ({@link PgCluster}, {@link PgStandbyPair}) do to a server's process. */
final class PgProcesses {

    private PgProcesses() {
    }

    /**
     * Stops the server the way a crash would: SIGQUIT to the postmaster is PostgreSQL's immediate shutdown (every
     * backend quits at once without a checkpoint; crash recovery at the next start). Sent directly because
     * pg_ctl refuses to run as root, which CI machines often are. Releases the data directory's lock so the same
     * directory can be started again.
     */
    static void stopImmediately(Path dataDir, EmbeddedPostgres server, String what)
            throws IOException, InterruptedException {
        long pid = Long.parseLong(Files.readAllLines(dataDir.resolve("postmaster.pid")).get(0).trim());
        ProcessHandle postmaster = ProcessHandle.of(pid)
                .orElseThrow(() -> new IOException(what + " is not running"));
        Process kill = new ProcessBuilder("kill", "-QUIT", String.valueOf(pid)).start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IOException("could not signal " + what);
        }
        try {
            postmaster.onExit().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException(what + " did not stop", e);
        }
        releaseDataDirectoryLock(server);
    }

    /** The stopped instance still holds its lock on the data directory, which a restart must take. */
    private static void releaseDataDirectoryLock(EmbeddedPostgres stopped) throws IOException {
        try {
            var lock = EmbeddedPostgres.class.getDeclaredField("lock");
            var stream = EmbeddedPostgres.class.getDeclaredField("lockStream");
            lock.setAccessible(true);
            stream.setAccessible(true);
            ((java.nio.channels.FileLock) lock.get(stopped)).release();
            ((java.io.FileOutputStream) stream.get(stopped)).close();
        } catch (ReflectiveOperationException e) {
            throw new IOException("cannot release the stopped server's data directory lock", e);
        }
    }
}
