package dev.slotpool.console;

/**
 * The console's resolved settings.
 *
 * @param path           where the page is ({@code slotpool.console.path})
 * @param actionsEnabled whether the buttons act: {@code slotpool.console.actions-enabled} when set, else
 *                       whether Spring Security is on the class path
 */
public record ConsoleSettings(String path, boolean actionsEnabled) {
}
