package dev.slotpool;

/**
 * Supplies the user name and password of each new connection, read again at every creation, so rotated
 * credentials (a vault lease, a cloud IAM token) take effect without a restart. Called on a pool thread, never on
 * a borrower's (S6); a provider that throws or returns null fails that creation like a failed connect (event,
 * back-off, failure detection), its message redacted of the pool's known secrets.
 *
 * <p>Set with {@link SlotPoolBuilder#credentialsProvider(CredentialsProvider)}; it takes the place of the
 * configured {@code username}/{@code password} of every origin.
 */
@FunctionalInterface
public interface CredentialsProvider {

    /**
     * The credentials for a new connection to the origin named {@code origin} (a discovery source's name for
     * connections opened on its URL).
     *
     * @param origin the name of the origin the connection is for
     * @return the credentials to connect with
     * @throws Exception when none can be had now: that creation fails like a failed connect
     */
    Credentials credentials(String origin) throws Exception;

    /**
     * A user name and password. A null user name keeps the origin's configured one; a null password sends none
     * (a URL's own credentials, if any, then apply).
     * {@link #toString()} never shows the password.
     */
    record Credentials(String username, String password) {

        @Override
        public String toString() {
            return "Credentials[username=" + username + ", password=" + (password == null ? "null" : "***") + "]";
        }
    }
}
