package dev.slotpool.console;

import dev.slotpool.console.ConsoleViews.HistoryPoint;

import java.util.ArrayList;
import java.util.List;

/**
 * A fixed ring of {@link HistoryPoint}s, one per second: an array of {@code capacity} points allocated once, the
 * newest overwriting the oldest, so it never grows. A point for the second of the newest point replaces it (a
 * sampler that ran twice in one second keeps its later sample). Written by the sampler thread, read by request
 * threads: every access holds the ring's monitor, for at most one copy of the array.
 */
final class HistoryRing {

    private final HistoryPoint[] points;
    private int next;
    private int size;

    HistoryRing(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be ≥ 1 (was " + capacity + ")");
        }
        this.points = new HistoryPoint[capacity];
    }

    int capacity() {
        return points.length;
    }

    /** Adds the point, or replaces the newest when it is of the same second. */
    synchronized void put(HistoryPoint point) {
        int newest = (next - 1 + points.length) % points.length;
        if (size > 0 && points[newest].at() == point.at()) {
            points[newest] = point;
            return;
        }
        points[next] = point;
        next = (next + 1) % points.length;
        size = Math.min(size + 1, points.length);
    }

    /** The points at or after {@code fromMillis}, oldest first. */
    synchronized List<HistoryPoint> since(long fromMillis) {
        List<HistoryPoint> list = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            HistoryPoint p = points[(next - size + i + points.length) % points.length];
            if (p.at() >= fromMillis) {
                list.add(p);
            }
        }
        return list;
    }
}
