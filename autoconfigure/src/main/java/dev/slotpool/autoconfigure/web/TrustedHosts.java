package dev.slotpool.autoconfigure.web;

import org.jspecify.annotations.Nullable;

import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Which names an action on the pool may be addressed to without Spring Security: a page served from a DNS name
 * that an attacker points at this server (DNS rebinding) is same-origin with the console and gets its cookie and
 * token, but its requests carry the attacker's name in {@code Host} and {@code Origin}, which a page cannot forge.
 * So an action is taken only when {@code Host} names a loopback host or one of {@code slotpool.allowed-hosts},
 * and {@code Origin}, when sent (browsers send it on every POST), names that same host and port.
 */
final class TrustedHosts {

    /** The property naming the hosts trusted besides loopback. */
    static final String PROPERTY = "slotpool.allowed-hosts";

    private static final Pattern IPV4_LOOPBACK = Pattern.compile("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");

    private final Set<String> allowed;

    TrustedHosts(List<String> allowed) {
        this.allowed = allowed.stream().map(h -> h.trim().toLowerCase(Locale.ROOT)).filter(h -> !h.isEmpty())
                .collect(Collectors.toUnmodifiableSet());
    }

    /** Why an action with this {@code Host} and {@code Origin} (either may be null) is refused, or null. */
    @Nullable String refusal(@Nullable String hostHeader, @Nullable String origin) {
        if (hostHeader == null || hostHeader.isBlank()) {
            return "pool action refused: the request has no Host header";
        }
        String host = hostOf(hostHeader.trim());
        if (!isLoopback(host) && !allowed.contains(host)) {
            return "pool action refused: the request's Host '" + printable(hostHeader) + "' is neither a loopback "
                    + "name nor one of " + PROPERTY + " (without Spring Security an action is taken only through a "
                    + "trusted name, against DNS rebinding)";
        }
        if (origin != null && !sameAuthority(hostHeader.trim(), origin.trim())) {
            return "pool action refused: the request's Origin '" + printable(origin) + "' is not its Host '"
                    + printable(hostHeader) + "' (actions come only from the console's own page)";
        }
        return null;
    }

    /** The host of a {@code Host} header, lower case, an IPv6 literal with its brackets. */
    private static String hostOf(String hostHeader) {
        String h = hostHeader.toLowerCase(Locale.ROOT);
        if (h.startsWith("[")) {
            int end = h.indexOf(']');
            return end < 0 ? h : h.substring(0, end + 1);
        }
        int colon = h.lastIndexOf(':');
        return colon < 0 ? h : h.substring(0, colon);
    }

    private static int portOf(String hostHeader, int defaultPort) {
        int bracket = hostHeader.lastIndexOf(']');
        int colon = hostHeader.lastIndexOf(':');
        if (colon <= bracket || colon == hostHeader.length() - 1) {
            return defaultPort;
        }
        try {
            return Integer.parseInt(hostHeader.substring(colon + 1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static boolean isLoopback(String host) {
        return host.equals("localhost") || host.endsWith(".localhost") || host.equals("[::1]")
                || IPV4_LOOPBACK.matcher(host).matches();
    }

    /** Whether the Origin (scheme://host[:port]) names the Host header's host and port. */
    private static boolean sameAuthority(String hostHeader, String origin) {
        URI uri;
        try {
            uri = new URI(origin);
        } catch (java.net.URISyntaxException e) {
            return false;
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        int defaultPort = switch (scheme) {
            case "http" -> 80;
            case "https" -> 443;
            default -> -2;
        };
        if (defaultPort < 0 || uri.getHost() == null) {
            return false; // "null" (an opaque origin), or not a web origin
        }
        int originPort = uri.getPort() < 0 ? defaultPort : uri.getPort();
        return uri.getHost().toLowerCase(Locale.ROOT).equals(hostOf(hostHeader))
                && originPort == portOf(hostHeader, defaultPort);
    }

    /** A header as a message may quote it: printable ASCII only, at most 100 characters. */
    private static String printable(String header) {
        String p = header.replaceAll("[^\\x20-\\x7e]", "?");
        return p.length() > 100 ? p.substring(0, 100) + "…" : p;
    }
}
