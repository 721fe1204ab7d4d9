package dev.slotpool;

import java.util.Locale;
import java.util.regex.Pattern;

/** Removes secrets from JDBC URLs before they appear in any message, snapshot or log line. */
public final class JdbcUrls {

    /** The words that make a URL parameter or connection property a secret: {@code password}, {@code password1}
     * (MySQL), {@code sslpassword}, {@code oracle.net.wallet_password}, {@code javax.net.ssl.keyStorePassword},
     * {@code sslkey}, {@code apiKey}, ... */
    private static final String SECRET_WORDS = "password|passwd|pwd|secret|token|sslkey|apikey|api_key|accesskey";
    private static final Pattern SECRET_KEY = Pattern.compile("(?i).*(?:" + SECRET_WORDS + ").*");
    /** {@code user:secret@} in authority-style URLs, up to the last {@code @} before the host: a password may hold
     * {@code @} itself. */
    private static final Pattern USER_INFO = Pattern.compile("(//)[^/?#;]*:[^/?#;]*@");
    /** Secret parameters in both {@code ?a=b&c=d} and {@code ;a=b;c=d} styles; a value in braces (SQL Server:
     * {@code password={a;b}}}, with {@code }}} for a brace) ends at its closing brace, not at a {@code ;}. */
    private static final Pattern SECRET_PARAMS = Pattern.compile(
            "(?i)([\\w.\\-]*(?:" + SECRET_WORDS + ")[\\w.\\-]*=)(?:\\{(?:[^}]|\\}\\})*\\}|[^&;]*)");
    /** {@code user/password@host} after a colon (Oracle thin style), also in malformed URLs. */
    private static final Pattern SLASH_CREDENTIALS = Pattern.compile("(:)[^/@:;?&]+/[^@/;?&]*@");

    private JdbcUrls() {
    }

    /**
     * The URL with any credential replaced by {@code ***}; null stays null.
     *
     * @param url a JDBC URL, or null
     * @return the URL without its credentials, or null
     */
    public static String redact(String url) {
        if (url == null) {
            return null;
        }
        String r = USER_INFO.matcher(url).replaceAll("$1***:***@");
        r = SLASH_CREDENTIALS.matcher(r).replaceAll("$1***/***@");
        return SECRET_PARAMS.matcher(r).replaceAll("$1***");
    }

    /**
     * Whether a URL parameter or connection property of this name holds a secret (its value is never shown).
     *
     * @param key the parameter's or property's name, or null
     * @return whether its value is a secret
     */
    public static boolean isSecretKey(String key) {
        return key != null && SECRET_KEY.matcher(key.toLowerCase(Locale.ROOT)).matches();
    }
}
