package dev.slotpool.bench.scaling;

import java.util.Locale;

/** What each thread does with a borrowed connection. */
enum Mode {

    /** Borrow and close at once: the pool's own cost. */
    SCALING("Borrow → close, no statement"),

    /** Borrow, run one statement whose stub query delay is the hold time, close: a queue in front of the pool. */
    HELD("Borrow → one statement held by the stub's query delay → close");

    private final String title;

    Mode(String title) {
        this.title = title;
    }

    /** Lower-case name for command lines, CSV rows and file names. */
    String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    String title() {
        return title;
    }
}
