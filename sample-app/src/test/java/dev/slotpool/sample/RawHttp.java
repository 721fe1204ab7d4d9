package dev.slotpool.sample;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * HTTP/1.1 over a plain socket to the app on loopback, for what {@link java.net.http.HttpClient} will not send: a
 * {@code Host} of another name (a DNS-rebinding page's), any method, any header. Every request closes its
 * connection; chunked answers are decoded.
 */
final class RawHttp {

    /** The console token of a page, as its meta tag carries it. */
    private static final Pattern CONSOLE_TOKEN = Pattern.compile(
            "<meta name=\"slotpool-console-token\" content=\"([^\"]+)\"");

    private final int port;

    RawHttp(int port) {
        this.port = port;
    }

    int port() {
        return port;
    }

    record Response(int status, Map<String, List<String>> headers, String body) {

        Optional<String> header(String name) {
            List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
            return values == null ? Optional.empty() : Optional.of(values.get(0));
        }

        List<String> headers(String name) {
            return headers.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
        }

        /** The console's cookie pair ({@code SLOTPOOL_CONSOLE=...}) this answer set, if any. */
        Optional<String> consoleCookie() {
            return headers("set-cookie").stream().filter(c -> c.startsWith("SLOTPOOL_CONSOLE="))
                    .map(c -> c.substring(0, c.indexOf(';') < 0 ? c.length() : c.indexOf(';'))).findFirst();
        }

        /** The console token of this page, if it carries one. */
        Optional<String> consoleToken() {
            Matcher m = CONSOLE_TOKEN.matcher(body);
            return m.find() ? Optional.of(m.group(1)) : Optional.empty();
        }

        @Override
        public String toString() {
            return status + " " + headers + " " + body;
        }
    }

    /**
     * Sends {@code method path} with the {@code Host} header {@code host} (its name and port as a browser sends
     * them), the given headers and body ({@code Content-Length} set when there is one).
     */
    Response send(String method, String path, String host, Map<String, String> headers, String body) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            s.setSoTimeout(30_000);
            s.getOutputStream().write(request(method, path, host, headers, body));
            s.getOutputStream().flush();
            return read(s.getInputStream(), !method.equals("HEAD"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Response get(String path, String host, Map<String, String> headers) {
        return send("GET", path, host, headers, null);
    }

    /** {@code localhost:port}: the loopback name a browser on this machine sends. */
    String loopback() {
        return "localhost:" + port;
    }

    static byte[] request(String method, String path, String host, Map<String, String> headers, String body) {
        StringBuilder r = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\n");
        if (host != null) {
            r.append("Host: ").append(host).append("\r\n");
        }
        headers.forEach((k, v) -> r.append(k).append(": ").append(v).append("\r\n"));
        byte[] b = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        if (body != null) {
            r.append("Content-Length: ").append(b.length).append("\r\n");
        }
        r.append("Connection: close\r\n\r\n");
        byte[] head = r.toString().getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = new byte[head.length + b.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(b, 0, all, head.length, b.length);
        return all;
    }

    /** Reads the status line and headers, then (when {@code body}) the body to its length, its last chunk or EOF. */
    static Response read(InputStream in, boolean body) throws IOException {
        String status = line(in);
        if (status == null || !status.startsWith("HTTP/1.")) {
            throw new IOException("not an HTTP answer: " + status);
        }
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (String l = line(in); l != null && !l.isEmpty(); l = line(in)) {
            int colon = l.indexOf(':');
            headers.computeIfAbsent(l.substring(0, colon).trim().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                    .add(l.substring(colon + 1).trim());
        }
        int code = Integer.parseInt(status.split(" ")[1]);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (body) {
            if (headers.getOrDefault("transfer-encoding", List.of()).contains("chunked")) {
                for (int size = Integer.parseInt(line(in).split(";")[0].trim(), 16); size > 0;
                     size = Integer.parseInt(line(in).split(";")[0].trim(), 16)) {
                    out.write(in.readNBytes(size));
                    line(in);
                }
            } else if (headers.containsKey("content-length")) {
                out.write(in.readNBytes(Integer.parseInt(headers.get("content-length").get(0))));
            } else {
                in.transferTo(out);
            }
        }
        return new Response(code, headers, out.toString(StandardCharsets.UTF_8));
    }

    /** One CRLF-terminated line, without its end; null at EOF. */
    static String line(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        for (int c = in.read(); c >= 0; c = in.read()) {
            if (c == '\n') {
                int n = b.length();
                return n > 0 && b.charAt(n - 1) == '\r' ? b.substring(0, n - 1) : b.toString();
            }
            b.append((char) c);
        }
        return b.length() == 0 ? null : b.toString();
    }
}
