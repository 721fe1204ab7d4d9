import dev.slotpool.bench.*;
import dev.slotpool.testsupport.StubDatabase;
import javax.sql.DataSource;
import java.lang.invoke.*;
import java.util.*;
import java.util.concurrent.*;

/**
 * Diagnostic for the chain harness (docs/benchmarks.md, "Thread per request: chains that keep a carrier"): per chain,
 * the time from the predecessor's Thread.start to the request's first instruction (queue), the borrow's time, and
 * which carrier ran every 128th request; at the window's end, where a starving chain's pending request is.
 * Output: diagnosis.txt. Run (Temurin 25, a benchmarks.jar):
 *   javac -cp benchmarks.jar -d . Diag.java && flock <lock> java -cp benchmarks.jar:. Diag slotpool hikari
 */
public class Diag {
    static final int STRIDE = 16;
    static final VarHandle CELL = MethodHandles.arrayElementVarHandle(long[].class);
    static final int COUNT = 0, PHASE = 1, W1 = 2, W2 = 3, BORROWNS = 4, QUEUENS = 5, STAMP = 6;
    static long[] cells;
    static volatile boolean stopping;
    static DataSource ds;
    static int n;

    static long get(int c, int f) { return (long) CELL.getOpaque(cells, (c + 1) * STRIDE + f); }
    static void set(int c, int f, long v) { CELL.setOpaque(cells, (c + 1) * STRIDE + f, v); }

    static void start(int c) {
        set(c, PHASE, 1);
        set(c, STAMP, System.nanoTime());
        Thread.ofVirtual().start(() -> request(c));
    }

    static void request(int c) {
        long t0 = System.nanoTime();
        set(c, QUEUENS, get(c, QUEUENS) + (t0 - get(c, STAMP)));
        set(c, PHASE, 2);
        try { ds.getConnection().close(); } catch (Exception e) { throw new RuntimeException(e); }
        long t1 = System.nanoTime();
        set(c, BORROWNS, get(c, BORROWNS) + (t1 - t0));
        set(c, PHASE, 3);
        long k = get(c, COUNT) + 1;
        set(c, COUNT, k);
        if ((k & 127) == 0) {
            String s = Thread.currentThread().toString();
            int w = s.endsWith("worker-1") ? W1 : s.endsWith("worker-2") ? W2 : -1;
            if (w > 0) set(c, w, get(c, w) + 1);
        }
        if (!stopping) start(c);
    }

    static long[] snap(int f) { long[] r = new long[n]; for (int i = 0; i < n; i++) r[i] = get(i, f); return r; }

    public static void main(String[] a) throws Exception {
        n = 200;
        for (String kind : a) {
            for (int run = 0; run < 2; run++) {
            PoolKind k = PoolKind.parse(kind).get(0);
            StubDatabase db = StubDatabase.reset("diag-" + kind);
            BenchPool pool = k.start(PoolSettings.fixed(db.url(), 6, java.time.Duration.ofSeconds(30)));
            ds = pool.dataSource();
            cells = new long[(n + 1) * STRIDE];
            stopping = false;
            for (int i = 0; i < n; i++) start(i);
            Thread.sleep(1000);
            long[] c0 = snap(COUNT), q0 = snap(QUEUENS), b0 = snap(BORROWNS), w10 = snap(W1), w20 = snap(W2);
            Thread.sleep(2000);
            long[] c1 = snap(COUNT), q1 = snap(QUEUENS), b1 = snap(BORROWNS), ph = snap(PHASE), st = snap(STAMP), w11 = snap(W1), w21 = snap(W2);
            long now = System.nanoTime();
            stopping = true;
            Thread.sleep(300);
            pool.close();
            long[] d = new long[n]; long tot = 0; for (int i = 0; i < n; i++) { d[i] = c1[i] - c0[i]; tot += d[i]; }
            long[] s = d.clone(); Arrays.sort(s); double med = (s[n/2-1] + s[n/2]) / 2.0;
            int busiest = 0; for (int i = 0; i < n; i++) if (d[i] > d[busiest]) busiest = i;
            System.out.printf("%s run %d: %d req; per chain min %d median %.0f max %d; busiest share %.1f%%%n", kind, run, tot, s[0], med, s[n-1], 100.0 * d[busiest] / tot);
            System.out.printf("  busiest chain %d: carrier samples w1 %d w2 %d; mean queue %.2f us, mean borrow %.2f us%n", busiest, w11[busiest]-w10[busiest], w21[busiest]-w20[busiest],
                (q1[busiest]-q0[busiest]) / 1e3 / Math.max(1,d[busiest]), (b1[busiest]-b0[busiest]) / 1e3 / Math.max(1,d[busiest]));
            long ow1 = 0, ow2 = 0, oq = 0, ob = 0, on = 0;
            for (int i = 0; i < n; i++) if (i != busiest) { ow1 += w11[i]-w10[i]; ow2 += w21[i]-w20[i]; oq += q1[i]-q0[i]; ob += b1[i]-b0[i]; on += d[i]; }
            System.out.printf("  other chains: carrier samples w1 %d w2 %d; mean queue %.2f us, mean borrow %.2f us%n", ow1, ow2, oq / 1e3 / Math.max(1,on), ob / 1e3 / Math.max(1,on));
            int[] phases = new int[4]; int starving = 0; double maxAge = 0;
            for (int i = 0; i < n; i++) if (d[i] < 0.25 * med) { starving++; phases[(int) ph[i]]++; maxAge = Math.max(maxAge, (now - st[i]) / 1e6); }
            System.out.printf("  chains under 1/4 median: %d; their pending request at window end: queued %d, in borrow %d, after borrow %d; oldest queued since %.0f ms%n", starving, phases[1], phases[2], phases[3], maxAge);
            }
        }
        System.exit(0);
    }
}
