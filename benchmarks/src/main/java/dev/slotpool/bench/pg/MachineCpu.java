package dev.slotpool.bench.pg;

import com.sun.management.OperatingSystemMXBean;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/** CPU readings around a measurement window: the whole machine's (/proc/stat) and this JVM's own. */
final class MachineCpu {

    private static final OperatingSystemMXBean OS =
            (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private MachineCpu() {
    }

    /** The machine's CPU time so far, all CPUs: {busy, total} in clock ticks; null where there is no /proc/stat. */
    static long[] times() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long total = 0;
            // user nice system idle iowait irq softirq steal; guest time is already counted in user and nice.
            for (int i = 1; i <= Math.min(8, f.length - 1); i++) {
                total += Long.parseLong(f[i]);
            }
            long idle = Long.parseLong(f[4]) + (f.length > 5 ? Long.parseLong(f[5]) : 0);
            return new long[] {total - idle, total};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Busy ÷ total CPU time between two readings of {@link #times()}; NaN when either is missing. */
    static double busyShare(long[] before, long[] after) {
        if (before == null || after == null || after[1] <= before[1]) {
            return Double.NaN;
        }
        return (double) (after[0] - before[0]) / (after[1] - before[1]);
    }

    /** This JVM's CPU time so far, all its threads, in nanoseconds; -1 where the platform does not tell. */
    static long processNanos() {
        return OS.getProcessCpuTime();
    }
}
