package dev.slotpool.console;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseCookie;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The console's own guard against cross-site requests, with or without Spring Security (docs/console.md, Security
 * model). The page's response sets a cookie holding a random nonce (HttpOnly, SameSite=Lax, below the console's
 * path) and carries the token, an HMAC of that nonce under a key made at start-up, in a meta tag; every action must
 * send the token in the {@value #HEADER} header along with the cookie. Another site's page can neither read the
 * token nor send the header without a CORS preflight the application does not allow, and a browser sends a Lax
 * cookie with no cross-site POST; a token is good only with its own browser's cookie, so one user's token is no use
 * in another's browser. A request the browser marks {@code Sec-Fetch-Site: cross-site} or {@code same-site} is
 * refused before the token is read.
 */
final class ConsoleToken {

    /** The header an action carries the token in. */
    static final String HEADER = "X-Slotpool-Console-Token";
    /** The cookie holding this browser's nonce. */
    static final String COOKIE = "SLOTPOOL_CONSOLE";

    private static final Pattern NONCE = Pattern.compile("[A-Za-z0-9_-]{22}");
    private static final Base64.Encoder BASE64 = Base64.getUrlEncoder().withoutPadding();

    private final SecureRandom random = new SecureRandom();
    private final SecretKeySpec key;
    private final String path;

    ConsoleToken(String path) {
        byte[] k = new byte[32];
        random.nextBytes(k);
        this.key = new SecretKeySpec(k, "HmacSHA256");
        this.path = path;
    }

    /** The token for this browser, setting its nonce cookie when the request brought none. */
    String issue(HttpServletRequest request, HttpServletResponse response) {
        String nonce = nonce(request);
        if (nonce == null) {
            byte[] n = new byte[16];
            random.nextBytes(n);
            nonce = BASE64.encodeToString(n);
            response.addHeader(HttpHeaders.SET_COOKIE, ResponseCookie.from(COOKIE, nonce).path(path).httpOnly(true)
                    .secure(request.isSecure()).sameSite("Lax").build().toString());
        }
        return mac(nonce);
    }

    /** Why this action is refused as possibly cross-site, or null when it carries its browser's token. */
    @Nullable String refusal(HttpServletRequest request) {
        String site = request.getHeader("Sec-Fetch-Site");
        if (site != null && (site.equalsIgnoreCase("cross-site") || site.equalsIgnoreCase("same-site"))) {
            return "console action refused: a cross-site request (Sec-Fetch-Site: " + site.toLowerCase(Locale.ROOT)
                    + ")";
        }
        String nonce = nonce(request);
        String token = request.getHeader(HEADER);
        if (nonce == null || token == null || token.isBlank()) {
            return "console action refused: no console token (the console page's " + HEADER + " header and "
                    + COOKIE + " cookie; actions come only from the console page)";
        }
        if (!MessageDigest.isEqual(mac(nonce).getBytes(StandardCharsets.US_ASCII),
                token.trim().getBytes(StandardCharsets.US_ASCII))) {
            return "console action refused: the console token is not this browser's (reload the console page)";
        }
        return null;
    }

    private static @Nullable String nonce(HttpServletRequest request) {
        Cookie[] cookies = request.getCookies();
        if (cookies != null) {
            for (Cookie c : cookies) {
                if (COOKIE.equals(c.getName()) && c.getValue() != null && NONCE.matcher(c.getValue()).matches()) {
                    return c.getValue();
                }
            }
        }
        return null;
    }

    private String mac(String nonce) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return BASE64.encodeToString(mac.doFinal(nonce.getBytes(StandardCharsets.US_ASCII)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is a JDK algorithm", e);
        }
    }
}
