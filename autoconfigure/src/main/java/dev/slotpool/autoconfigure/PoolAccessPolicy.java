package dev.slotpool.autoconfigure;

import dev.slotpool.OriginConfig;
import dev.slotpool.PoolConfig;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.autoconfigure.endpoint.PropertiesEndpointAccessResolver;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * Who may act on a pool, and who may see who holds its connections ({@link #maySeeHolders}), at both front doors: the {@code pool} Actuator
 * endpoint and the console (docs/console.md, Security model). One instance per application, read from its
 * environment; both doors ask it, so a read-only endpoint means a read-only console and a reader sees at one door
 * what it sees at the other.
 *
 * <ul>
 *   <li>Writes: permitted only when the pool endpoint's access ({@code management.endpoint.pool.access}, else
 *       {@code management.endpoints.access.default}, else read-only; capped by
 *       {@code management.endpoints.access.max-permitted}) is unrestricted, as Boot resolves it. Without Actuator on
 *       the class path there is no endpoint and no such cap.</li>
 *   <li>A reader may act when writes are permitted and: with Spring Security on the class path, it holds one of
 *       {@code slotpool.operator-roles} (none named: nobody); without it, at the endpoint everyone (whoever
 *       reaches the endpoint may post to it), at the console only with {@code slotpool.console.actions-enabled=true}.
 *       The console's {@code actions-enabled} set to true or false overrides the roles there.</li>
 * </ul>
 */
public final class PoolAccessPolicy {

    /** The property naming the roles that may act. */
    public static final String OPERATOR_ROLES = "slotpool.operator-roles";

    private static final String SECURITY_CLASS = "org.springframework.security.core.Authentication";
    private static final String ACCESS_RESOLVER_CLASS =
            "org.springframework.boot.actuate.autoconfigure.endpoint.PropertiesEndpointAccessResolver";

    /** The text that replaces an address or a user name in what readers see. */
    static final String WITHHELD = "***";

    /** IPv4, and IPv6 written in full or with {@code ::}. */
    private static final Pattern ADDRESS = Pattern.compile(
            "(?<![\\w.])\\d{1,3}(?:\\.\\d{1,3}){3}(?![\\w.])"
                    + "|(?<![\\w:])(?:[0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}(?![\\w:])"
                    + "|(?<![\\w:])(?:[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{1,4})*)?::"
                    + "(?:[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{1,4})*)?(?![\\w:])");
    /** A quoted host, user or role as drivers name them: {@code host "10.1.2.3"}, {@code user 'app'}, {@code user=app}. */
    private static final Pattern NAMED = Pattern.compile(
            "(?i)\\b(host|user(?:name)?|role)(\\s*=?\\s*)(\"[^\"]*\"|'[^']*'|(?<==)[^\\s,;&)\"']+)");
    /** MySQL's {@code 'app'@'10.1.2.3'}. */
    private static final Pattern USER_AT_HOST = Pattern.compile("'[^'\\s]*'@'[^'\\s]*'");

    private final @Nullable String readOnlyBecause;
    private final List<String> operatorRoles;
    private final boolean springSecurity;

    /** A policy as {@link #of} reads it; {@code readOnlyBecause} null when writes are permitted. */
    public PoolAccessPolicy(@Nullable String readOnlyBecause, List<String> operatorRoles, boolean springSecurity) {
        this.readOnlyBecause = readOnlyBecause;
        this.operatorRoles = List.copyOf(operatorRoles);
        this.springSecurity = springSecurity;
    }

    /** The policy of the application whose environment and class loader these are. */
    public static PoolAccessPolicy of(Environment environment, @Nullable ClassLoader classLoader) {
        List<String> roles = Binder.get(environment).bind(OPERATOR_ROLES, Bindable.listOf(String.class))
                .orElse(List.of()).stream().map(String::trim).filter(r -> !r.isEmpty()).toList();
        String readOnly = ClassUtils.isPresent(ACCESS_RESOLVER_CLASS, classLoader) ? EndpointAccess.readOnlyBecause(
                environment) : null;
        return new PoolAccessPolicy(readOnly, roles, ClassUtils.isPresent(SECURITY_CLASS, classLoader));
    }

    /** Null when writes are permitted, else why not (naming the property to change). */
    public @Nullable String readOnlyBecause() {
        return readOnlyBecause;
    }

    /** {@code slotpool.operator-roles}, as Spring Security's roles (without the {@code ROLE_} prefix). */
    public List<String> operatorRoles() {
        return operatorRoles;
    }

    /** Whether Spring Security is on the class path. */
    public boolean springSecurity() {
        return springSecurity;
    }

    /** Whether the reader of the endpoint may act. {@code roles}: whether it holds any of them. */
    public boolean mayActAtEndpoint(Roles roles) {
        if (readOnlyBecause != null) {
            return false;
        }
        return !springSecurity || holdsOperatorRole(roles);
    }

    /**
     * Whether the console's reader may act. {@code actionsEnabled}: the console's
     * {@code slotpool.console.actions-enabled}; set, it decides (within the writes permitted); unset, the roles do.
     */
    public boolean mayActInConsole(@Nullable Boolean actionsEnabled, Roles roles) {
        if (readOnlyBecause != null) {
            return false;
        }
        if (actionsEnabled != null) {
            return actionsEnabled;
        }
        return springSecurity && holdsOperatorRole(roles);
    }

    /**
     * The one holder rule of both front doors: whether this reader may see who holds a connection (holder thread,
     * labels, borrow stack) and failure texts whole. Only a reader Spring Security authenticated with one of
     * {@code slotpool.operator-roles}, while writes are permitted: the stricter of the rules the endpoint and the
     * console had (the endpoint showed holders to anyone who may post without Spring Security, the console to
     * anyone under {@code actions-enabled=true}). Without Spring Security no front door names a holder; the
     * application's log has a leak's holder (docs/console.md, Security model).
     */
    public boolean maySeeHolders(Roles roles) {
        return readOnlyBecause == null && springSecurity && holdsOperatorRole(roles);
    }

    private boolean holdsOperatorRole(Roles roles) {
        return !operatorRoles.isEmpty() && roles.holdsAny(operatorRoles);
    }

    /**
     * A failure or event text as a reader who may not act sees it: client addresses, host and user names that
     * drivers quote ({@code no pg_hba.conf entry for host "10.1.2.3", user "app"}), and the pool's configured user
     * names replaced by {@code ***}. Null stays null.
     */
    public static @Nullable String forReaders(@Nullable String text, PoolConfig config) {
        return text == null ? null : forReaders(config).apply(text);
    }

    /** {@link #forReaders(String, PoolConfig)} with the pool's user names compiled once, for repeated use. */
    public static UnaryOperator<String> forReaders(PoolConfig config) {
        List<Pattern> users = userNames(config).stream()
                .map(user -> Pattern.compile("(?<![\\w.-])" + Pattern.quote(user) + "(?![\\w-])")).toList();
        return text -> {
            String t = USER_AT_HOST.matcher(text).replaceAll(WITHHELD);
            t = NAMED.matcher(t).replaceAll(m -> m.group(1) + m.group(2) + quote(m.group(3)));
            t = ADDRESS.matcher(t).replaceAll(WITHHELD);
            for (Pattern user : users) {
                t = user.matcher(t).replaceAll(WITHHELD);
            }
            return t;
        };
    }

    private static String quote(String value) {
        char q = value.charAt(0);
        return q == '"' || q == '\'' ? q + WITHHELD + q : WITHHELD;
    }

    private static Collection<String> userNames(PoolConfig config) {
        List<String> names = new ArrayList<>();
        if (config.username() != null && !config.username().isBlank()) {
            names.add(config.username());
        }
        for (OriginConfig o : config.origins()) {
            if (o.username() != null && !o.username().isBlank() && !names.contains(o.username())) {
                names.add(o.username());
            }
        }
        return names;
    }

    /** Whether a reader holds any of the roles (Spring Security's roles, without {@code ROLE_}). */
    @FunctionalInterface
    public interface Roles {

        boolean holdsAny(List<String> roles);

        /** Holds none: a reader nobody authenticated. */
        Roles NONE = roles -> false;
    }

    /** The pool endpoint's access as Boot resolves it; loaded only with Actuator on the class path. */
    private static final class EndpointAccess {

        static @Nullable String readOnlyBecause(Environment environment) {
            Access access = new PropertiesEndpointAccessResolver(environment).accessFor(EndpointId.of("pool"),
                    Access.READ_ONLY);
            return access == Access.UNRESTRICTED ? null : "the pool endpoint's access is "
                    + access.name().toLowerCase(Locale.ROOT).replace('_', '-')
                    + " (management.endpoint.pool.access, management.endpoints.access.default and "
                    + "management.endpoints.access.max-permitted decide it; unrestricted permits actions)";
        }
    }
}
