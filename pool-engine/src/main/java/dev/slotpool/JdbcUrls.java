package dev.slotpool;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Removes secrets from JDBC URLs before they appear in any message, snapshot or log line, by the URL's structure
 * rather than by the characters a secret may hold: the userinfo of an authority ({@code //user:pass@host}, up to
 * the last {@code @} that a host follows, whatever the password holds: {@code @ # ? / :}), Oracle's
 * {@code user/pass@host} (up to the last {@code @} before a host, {@code //} or a descriptor), and the value of
 * every parameter whose name holds {@link #SECRET_WORDS one of the secret words}.
 */
public final class JdbcUrls {

    /** The words that make a URL parameter or connection property a secret, anywhere in its name: {@code password},
     * {@code passcode}, {@code sslpassphrase}, {@code pwd}, {@code client_secret}, {@code sslkey},
     * {@code private_key_base64}, {@code apiKey}, {@code token}, {@code credentials}, ... */
    private static final String SECRET_WORDS = "pass|pwd|secret|key|token|credential";
    private static final Pattern SECRET_KEY = Pattern.compile("(?i).*(?:" + SECRET_WORDS + ").*");
    /** One host of an authority (a name, or an IPv6 literal in brackets) with an optional port. */
    private static final String HOST = "(?:\\[[^\\]\\s/@]*\\]|[\\w.%~-]+)(?::\\d*)?";
    /** Hosts (a list for a multi-host URL) and what may follow them: a path, parameters, or the end. */
    private static final Pattern HOSTS_THEN_END = Pattern.compile(HOST + "(?:," + HOST + ")*(?=[/?#;)]|$)");
    /** Secret parameters in {@code ?a=b&c=d}, {@code ;a=b;c=d} and {@code (A=B)} styles; a value in braces (SQL
     * Server: {@code password={a;b}}}, with {@code }}} for a brace) ends at its closing brace, not at a {@code ;}. */
    private static final Pattern SECRET_PARAMS = Pattern.compile("(?i)(?<![\\w.\\-])([\\w.\\-]*(?:" + SECRET_WORDS
            + ")[\\w.\\-]*)(\\s*=\\s*)(\\{(?:[^}]|\\}\\})*\\}|[^&;]*)");
    /** {@code user/password@} after a colon (Oracle thin style, also in malformed URLs): the password runs to the
     * last {@code @} that {@code //}, a descriptor's {@code (} or a host follows. */
    private static final Pattern SLASH_CREDENTIALS = Pattern.compile(
            "(:)([A-Za-z_$#\"][^/@:;?&()\\s]*)/(.*)@(?=//|\\(|" + HOST + "(?:[:/?;]|$))");

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
        String r = url;
        int[] userInfo = userInfo(r);
        if (userInfo != null) {
            r = r.substring(0, userInfo[0]) + (r.substring(userInfo[0], userInfo[1]).contains(":") ? "***:***" : "***")
                    + r.substring(userInfo[1]);
        }
        r = SLASH_CREDENTIALS.matcher(r).replaceAll("$1***/***@");
        return SECRET_PARAMS.matcher(r).replaceAll("$1$2***");
    }

    /** The secret values the URL holds as written (passwords, secret parameters' values), for removing them from
     * texts that echo them without the URL around them. */
    public static List<String> secretsOf(String url) {
        List<String> secrets = new ArrayList<>();
        if (url == null) {
            return secrets;
        }
        int[] userInfo = userInfo(url);
        if (userInfo != null) {
            String u = url.substring(userInfo[0], userInfo[1]);
            secrets.add(u.substring(u.indexOf(':') + 1));
        }
        for (Matcher m = SLASH_CREDENTIALS.matcher(url); m.find(); ) {
            secrets.add(m.group(3));
        }
        for (Matcher m = SECRET_PARAMS.matcher(url); m.find(); ) {
            String value = m.group(3);
            secrets.add(value);
            if (value.startsWith("{") && value.endsWith("}") && value.length() > 2) {
                secrets.add(value.substring(1, value.length() - 1).replace("}}", "}"));
            }
        }
        secrets.removeIf(String::isEmpty);
        return secrets;
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

    /**
     * Where the userinfo of the URL's authority is ({@code [start, end)}, the {@code @} at {@code end}), or null:
     * up to the last {@code @} that hosts follow, when what precedes it holds a {@code :} (a password); else up to
     * the last {@code @} before the authority's first {@code /?#}.
     */
    private static int[] userInfo(String url) {
        int slashes = url.indexOf("//");
        if (slashes < 0) {
            return null;
        }
        int from = slashes + 2;
        Matcher hosts = HOSTS_THEN_END.matcher(url);
        for (int at = url.lastIndexOf('@'); at >= from; at = url.lastIndexOf('@', at - 1)) {
            if (hosts.region(at + 1, url.length()).lookingAt()) {
                if (url.substring(from, at).contains(":")) {
                    return new int[] {from, at};
                }
                break;
            }
        }
        int end = from;
        while (end < url.length() && "/?#".indexOf(url.charAt(end)) < 0) {
            end++;
        }
        int at = url.lastIndexOf('@', end - 1);
        return at >= from ? new int[] {from, at} : null;
    }
}
