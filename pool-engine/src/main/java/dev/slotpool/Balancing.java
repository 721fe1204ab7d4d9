package dev.slotpool;

/** How the pool sets its origins' target shares. */
public enum Balancing {
    /** The configured (or rebalanced) weights. */
    WEIGHTS,
    /**
     * The weights scaled by each origin's observed borrow-to-return time and error rate: a node that answers
     * twice as slowly gets about half its weight's share, one whose connections break gets less again, so a slow
     * node sheds load without an advisory. Recomputed every housekeeping visit from the returns since the last.
     */
    LATENCY
}
