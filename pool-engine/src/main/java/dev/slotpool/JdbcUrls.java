package dev.slotpool;

import java.util.regex.Pattern;

/** Removes secrets from JDBC URLs before they appear in any message, snapshot or log line. */
public final class JdbcUrls {

    /** {@code user:secret@} in authority-style URLs. */
    private static final Pattern USER_INFO = Pattern.compile("(//)[^/@?;]*:[^/@?;]*@");
    /** {@code password=...}-like parameters, in both {@code ?a=b&c=d} and {@code ;a=b;c=d} styles. */
    private static final Pattern SECRET_PARAMS = Pattern.compile(
            "(?i)((?:password|passwd|pwd|secret|token|sslpassword|sslkey|apikey|api_key|accesskey)=)[^&;]*");
    /** {@code user/password@host} after a colon (Oracle thin style), also in malformed URLs. */
    private static final Pattern SLASH_CREDENTIALS = Pattern.compile("(:)[^/@:;?&]+/[^@/;?&]*@");

    private JdbcUrls() {
    }

    /** The URL with any credential replaced by {@code ***}; null stays null. */
    public static String redact(String url) {
        if (url == null) {
            return null;
        }
        String r = USER_INFO.matcher(url).replaceAll("$1***:***@");
        r = SLASH_CREDENTIALS.matcher(r).replaceAll("$1***/***@");
        return SECRET_PARAMS.matcher(r).replaceAll("$1***");
    }
}
