package dev.slotpool.console;

import dev.slotpool.autoconfigure.PoolAccessPolicy;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.security.authorization.AuthorityAuthorizationManager;
import org.springframework.security.core.context.SecurityContextHolder;

import java.util.List;

/**
 * Decides whether a console request may act on the pool (the {@link PoolAccessPolicy} the pool endpoint shares,
 * with the console's {@code actions-enabled} switch) and whether it may see who holds a connection (the policy's
 * one holder rule, {@link PoolAccessPolicy#maySeeHolders}, as at the endpoint). With Spring
 * Security the roles are asked of Spring Security's authorization ({@link AuthorityAuthorizationManager} over the
 * request's {@code Authentication}): a rule of the application's chain grants nothing here by being matched, only
 * an operator role does (docs/console.md, Security model).
 */
final class ConsoleAccess {

    private ConsoleAccess() {
    }

    static boolean mayAct(ConsoleSettings settings, HttpServletRequest request) {
        return settings.policy().mayActInConsole(settings.actionsEnabled(), roles(settings, request));
    }

    /** Whether the request may see who holds a connection: the one rule of both front doors. */
    static boolean maySeeHolders(ConsoleSettings settings, HttpServletRequest request) {
        return settings.policy().maySeeHolders(roles(settings, request));
    }

    private static PoolAccessPolicy.Roles roles(ConsoleSettings settings, HttpServletRequest request) {
        return settings.policy().springSecurity() ? SpringSecurityRoles.of(request) : PoolAccessPolicy.Roles.NONE;
    }

    /** The request's roles by Spring Security; loaded only with Spring Security on the class path. */
    private static final class SpringSecurityRoles {

        static PoolAccessPolicy.Roles of(HttpServletRequest request) {
            return (List<String> roles) -> AuthorityAuthorizationManager.<HttpServletRequest>hasAnyRole(
                            roles.toArray(String[]::new))
                    .authorize(() -> SecurityContextHolder.getContextHolderStrategy().getContext().getAuthentication(),
                            request)
                    .isGranted();
        }
    }
}
