// The cost of one System.nanoTime() call on this machine: 20 million calls, five times (java NanoCost.java).
public class NanoCost {
    public static void main(String[] a) {
        long sink = 0;
        for (int round = 0; round < 5; round++) {
            int n = 20_000_000;
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) sink += System.nanoTime();
            long t1 = System.nanoTime();
            System.out.printf("nanoTime: %.1f ns per call%n", (t1 - t0) / (double) n);
        }
        System.out.println(sink == 42 ? "" : "done");
    }
}
