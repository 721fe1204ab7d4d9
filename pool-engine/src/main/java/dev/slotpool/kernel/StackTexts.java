package dev.slotpool.kernel;

import java.io.PrintWriter;
import java.io.StringWriter;

/** The text of a stack recorded at a borrow, as leak warnings, abandoned-borrow events and snapshots show it. */
public final class StackTexts {

    private StackTexts() {
    }

    public static String of(Throwable borrowedAt) {
        StringWriter w = new StringWriter();
        borrowedAt.printStackTrace(new PrintWriter(w));
        return w.toString();
    }
}
