package dev.slotpool.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The order in which one run of a harness goes over its pools (or cells): each run starts one place further along.
 * In one fixed order the same pool would always run first, right after the pause, and the same pool last, and a
 * drift of the machine within each run would land on the same pools every time.
 */
public final class RunOrder {

    private RunOrder() {
    }

    /** {@code items} rotated left by {@code run - 1} places: run 1 keeps the given order. */
    public static <T> List<T> forRun(List<T> items, int run) {
        if (run < 1) {
            throw new IllegalArgumentException("run " + run + ": runs count from 1");
        }
        List<T> order = new ArrayList<>(items);
        Collections.rotate(order, 1 - run);
        return order;
    }
}
