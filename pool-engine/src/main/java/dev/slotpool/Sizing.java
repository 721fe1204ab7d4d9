package dev.slotpool;

/** How many connections each origin may hold (docs/architecture.md, "Adaptive sizing"). */
public enum Sizing {
    /** Up to the origin's cap ({@code maxConnections}, else {@code maxSize}), opened as demand needs. */
    FIXED,
    /**
     * Up to a limit per origin between a floor ({@code minSize} split over the origins) and that cap, moved every
     * 500 ms by how the held time of connections rises over its minimum; borrowers beyond it wait in the queue.
     */
    ADAPTIVE
}
