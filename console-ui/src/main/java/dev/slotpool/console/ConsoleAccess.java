package dev.slotpool.console;

import jakarta.servlet.http.HttpServletRequest;

/**
 * Decides whether a request may act on the pool (and so see who holds a connection), from the
 * {@link ConsoleSettings.Actions} mode. With {@link ConsoleSettings.Actions#CHAIN} only a request that the
 * application's security chain authorized through {@link SlotPoolConsoleRequest#toConsoleActions()} may: the
 * matcher marks the request with {@link #GRANTED} when it is the rule the chain's authorization applies, so a
 * chain that grants the console to any logged-in user (Boot's default) grants no action.
 */
final class ConsoleAccess {

    /** The request attribute {@link SlotPoolConsoleRequest#toConsoleActions()} sets when the chain used it. */
    static final String GRANTED = ConsoleAccess.class.getName() + ".GRANTED";

    private ConsoleAccess() {
    }

    static boolean mayAct(ConsoleSettings.Actions actions, HttpServletRequest request) {
        return switch (actions) {
            case OFF -> false;
            case ON -> true;
            case CHAIN -> Boolean.TRUE.equals(request.getAttribute(GRANTED));
        };
    }
}
