import dev.slotpool.bench.BenchPool;
import dev.slotpool.bench.PoolKind;
import dev.slotpool.bench.PoolSettings;
import dev.slotpool.testsupport.StubDatabase;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;

/** borrow -> close on N platform threads; reports the worker threads' CPU ns per cycle (robust to a loaded machine) and cycles/s. */
public class CpuCycle {
    public static void main(String[] a) throws Exception {
        String[] pools = a[0].split(",");
        int threads = Integer.parseInt(a[1]);
        double warm = Double.parseDouble(a[2]), window = Double.parseDouble(a[3]);
        int runs = Integer.parseInt(a[4]);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        for (int run = 1; run <= runs; run++) {
            for (String p : pools) {
                PoolKind kind = PoolKind.parse(p).get(0);
                StubDatabase db = StubDatabase.reset("cpu-" + p + run);
                try (BenchPool pool = kind.start(PoolSettings.fixed(db.url(), 6, Duration.ofSeconds(30)))) {
                    javax.sql.DataSource ds = pool.dataSource();
                    AtomicBoolean stop = new AtomicBoolean();
                    AtomicLongArray ops = new AtomicLongArray(threads * 16);
                    Thread[] ts = new Thread[threads];
                    for (int i = 0; i < threads; i++) {
                        int me = i * 16;
                        ts[i] = new Thread(() -> {
                            long n = 0;
                            try {
                                while (!stop.get()) {
                                    Connection c = ds.getConnection();
                                    c.close();
                                    n++;
                                    if ((n & 255) == 0) ops.lazySet(me, n);
                                }
                            } catch (Exception e) { throw new RuntimeException(e); }
                            ops.set(me, n);
                        });
                        ts[i].start();
                    }
                    Thread.sleep((long) (warm * 1000));
                    long[] cpu0 = new long[threads]; long[] op0 = new long[threads];
                    long t0 = System.nanoTime();
                    for (int i = 0; i < threads; i++) { cpu0[i] = mx.getThreadCpuTime(ts[i].getId()); op0[i] = ops.get(i * 16); }
                    Thread.sleep((long) (window * 1000));
                    long cpu = 0, n = 0;
                    for (int i = 0; i < threads; i++) { cpu += mx.getThreadCpuTime(ts[i].getId()) - cpu0[i]; n += ops.get(i * 16) - op0[i]; }
                    long t = System.nanoTime() - t0;
                    stop.set(true);
                    for (Thread th : ts) th.join();
                    System.out.printf("RESULT run=%d pool=%s threads=%d cpu_ns_per_op=%.1f ops_per_s=%.0f cpu_s=%.2f%n",
                            run, p, threads, (double) cpu / n, n * 1e9 / t, cpu / 1e9);
                }
            }
        }
    }
}
