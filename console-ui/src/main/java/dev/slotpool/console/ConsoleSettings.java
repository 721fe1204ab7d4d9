package dev.slotpool.console;

/**
 * The console's resolved settings.
 *
 * @param path    where the page is ({@code slotpool.console.path})
 * @param actions who may act (docs/console.md, Security)
 */
public record ConsoleSettings(String path, Actions actions) {

    /** Who may act, and so who sees a slot's holder thread and borrow stack. */
    public enum Actions {
        /** Nobody: {@code slotpool.console.actions-enabled=false}, or unset without Spring Security. */
        OFF,
        /** Every request that reaches the console: {@code slotpool.console.actions-enabled=true}. */
        ON,
        /**
         * Unset with Spring Security: a request the application's chain authorized through
         * {@link SlotPoolConsoleRequest#toConsoleActions()}; nobody else.
         */
        CHAIN
    }

    /** Whether the page draws the buttons (with {@link Actions#CHAIN} the chain still refuses whom it refuses). */
    public boolean buttons() {
        return actions != Actions.OFF;
    }
}
