package dev.slotpool.bench.pg;

import com.sun.management.OperatingSystemMXBean;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU readings around a measurement window: the whole machine's (/proc/stat), this JVM's own, and how often the
 * server's processes went to sleep (their voluntary context switches, /proc/PID/status).
 */
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

    /**
     * Voluntary context switches so far, summed over every process named {@code postgres} (the server and its
     * backends): each is a process that went to sleep, most often a backend waiting for its client's next
     * statement. -1 where there is no /proc. A backend that ends between two readings takes its count with it,
     * so read it around a window in which the pool's connections stay open.
     */
    static long serverSleeps() {
        try (DirectoryStream<Path> processes = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            long sum = 0;
            for (Path process : processes) {
                try {
                    if (!Files.readString(process.resolve("comm")).trim().equals("postgres")) {
                        continue;
                    }
                    for (String line : Files.readAllLines(process.resolve("status"))) {
                        if (line.startsWith("voluntary_ctxt_switches:")) {
                            sum += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                        }
                    }
                } catch (IOException e) {
                    // The process ended while being read: it counts for nothing.
                }
            }
            return sum;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** This JVM's CPU time so far, all its threads, in nanoseconds; -1 where the platform does not tell. */
    static long processNanos() {
        return OS.getProcessCpuTime();
    }
}
