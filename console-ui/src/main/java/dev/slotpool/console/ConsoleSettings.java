package dev.slotpool.console;

import dev.slotpool.autoconfigure.PoolAccessPolicy;
import org.jspecify.annotations.Nullable;

/**
 * The console's resolved settings.
 *
 * @param path           where the page is ({@code slotpool.console.path})
 * @param actionsEnabled {@code slotpool.console.actions-enabled}: null leaves who may act to the operator roles
 * @param policy         who may act, shared with the pool endpoint (docs/console.md, Security model)
 * @param showUrls       whether the page's data carries origin URLs: only with
 *                       {@code management.endpoint.pool.show-values=always}, since one stream serves every reader
 */
public record ConsoleSettings(String path, @Nullable Boolean actionsEnabled, PoolAccessPolicy policy,
                              boolean showUrls) {

    /** Why nobody may act whatever the reader, or null when some reader may. */
    @Nullable String nobodyActsBecause() {
        if (policy.readOnlyBecause() != null) {
            return "the console is read-only because " + policy.readOnlyBecause();
        }
        if (Boolean.FALSE.equals(actionsEnabled)) {
            return "console actions are disabled (slotpool.console.actions-enabled=false)";
        }
        if (actionsEnabled == null && !policy.springSecurity()) {
            return "console actions are disabled: without Spring Security the console is read-only unless "
                    + "slotpool.console.actions-enabled=true (trusted networks only)";
        }
        if (actionsEnabled == null && policy.operatorRoles().isEmpty()) {
            return "console actions are disabled: no role may act until slotpool.operator-roles names one";
        }
        return null;
    }
}
