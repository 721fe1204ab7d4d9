package dev.slotpool.sessions;

import dev.slotpool.Pooler;
import dev.slotpool.origins.Origin;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A physical connection's pooled server behind Oracle DRCP (docs/oracle.md, "DRCP"): attached at each borrow and
 * released at each return, as UCP does, so an idle connection holds no pooled server. The engine has no Oracle
 * dependency (as the Data Guard role reader, which only runs SQL): it finds Oracle's
 * {@code attachServerConnection()} and {@code detachServerConnection(String)} by name and signature on the public
 * interfaces the driver's connection class implements ({@code oracle.jdbc.OracleConnection} declares them), once
 * per connection class, and calls them by reflection. Used by the connection's owner only (S1): the borrower before
 * lending, the holder's proxy after the return's reset, the creator before publishing, the keepalive while it holds
 * the slot.
 */
public final class DrcpSession {

    /** Connection property with which Oracle's driver attaches and releases by itself in
     * {@code beginRequest}/{@code endRequest}; the pool then leaves it to the driver. */
    static final String MULTIPLEXING_IN_REQUEST_APIS = "oracle.jdbc.DRCPMultiplexingInRequestAPIs";

    private record Methods(Method attach, Method detach) {
    }

    private static final Methods NONE = new Methods(null, null);

    private static final ClassValue<Methods> METHODS = new ClassValue<>() {
        @Override
        protected Methods computeValue(Class<?> type) {
            return find(type);
        }
    };

    private final Connection physical;
    private final Methods methods;

    private DrcpSession(Connection physical, Methods methods) {
        this.physical = physical;
        this.methods = methods;
    }

    /**
     * The DRCP calls of a new connection of origin {@code o}, or null when the pool makes none: the origin is not
     * behind DRCP, the driver attaches in its request boundaries itself ({@value #MULTIPLEXING_IN_REQUEST_APIS}),
     * or the connection has no such methods (a driver without them keeps its pooled server for the connection's
     * life, as a dedicated server would).
     */
    public static DrcpSession of(Origin o, Connection physical) {
        if (o.config.pooler() != Pooler.DRCP
                || "true".equalsIgnoreCase(o.config.connectionProperties().get(MULTIPLEXING_IN_REQUEST_APIS))) {
            return null;
        }
        Methods m = METHODS.get(physical.getClass());
        return m == NONE ? null : new DrcpSession(physical, m);
    }

    /**
     * Attaches a pooled server; whatever the driver throws, an {@code Error} included, comes as an SQLException
     * (so for {@link #release} too). True when it carries the tag the connection was released with (or none was given);
     * false when DRCP gave the connection another session, whose state is not the tag's.
     */
    public boolean attach() throws SQLException {
        return (Boolean) call(methods.attach);
    }

    /** Releases the pooled server to the DRCP pool, tagged with the connection's labels (none: untagged). */
    public void release(Map<String, String> labels) throws SQLException {
        call(methods.detach, tag(labels));
    }

    /** The DRCP tag of a connection's labels: {@code key=value} pairs in key order, joined by {@code ;}; null for
     * none. */
    static String tag(Map<String, String> labels) {
        if (labels.isEmpty()) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        new TreeMap<>(labels).forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ";").append(k).append('=').append(v));
        return sb.toString();
    }

    private Object call(Method m, Object... args) throws SQLException {
        try {
            return m.invoke(physical, args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof SQLException sql) {
                throw sql;
            }
            // An Error too (a class missing at run time): every caller then closes the connection as for a
            // failed call, instead of an Error escaping a borrow, a return or the keepalive with the slot held.
            throw new SQLException("the driver failed in " + m.getName() + ": " + cause, cause);
        } catch (IllegalAccessException e) {
            throw new SQLException("the driver's " + m.getName() + " is not accessible: " + e.getMessage(), e);
        }
    }

    /** The two methods on a public interface of {@code type} (its own or a superclass's, breadth first), in an
     * exported package so they can be called without opening anything; NONE if there is no such pair. */
    private static Methods find(Class<?> type) {
        ArrayDeque<Class<?>> pending = new ArrayDeque<>();
        Set<Class<?>> seen = new HashSet<>();
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            pending.addAll(List.of(c.getInterfaces()));
        }
        while (!pending.isEmpty()) {
            Class<?> iface = pending.poll();
            if (!seen.add(iface)) {
                continue;
            }
            Method attach = callable(iface, "attachServerConnection");
            Method detach = callable(iface, "detachServerConnection", String.class);
            if (attach != null && attach.getReturnType() == boolean.class && detach != null) {
                return new Methods(attach, detach);
            }
            pending.addAll(List.of(iface.getInterfaces()));
        }
        return NONE;
    }

    private static Method callable(Class<?> iface, String name, Class<?>... parameters) {
        try {
            Method m = iface.getMethod(name, parameters);
            Class<?> owner = m.getDeclaringClass();
            return Modifier.isPublic(owner.getModifiers()) && owner.getModule().isExported(owner.getPackageName())
                    ? m : null;
        } catch (NoSuchMethodException e) {
            return null;
        }
    }
}
