import dev.slotpool.bench.BenchPool;
import dev.slotpool.bench.PoolKind;
import dev.slotpool.bench.PoolSettings;
import dev.slotpool.testsupport.StubDatabase;
import org.openjdk.jol.vm.VM;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.sql.Connection;
import java.time.Duration;
import java.util.*;

/** Prints the heap addresses of the pool's objects (after a loaded warm-up with GCs) and the 64-byte lines shared by two of them. */
public class LayoutProbe {
    record Node(Object o, String path) {}
    public static void main(String[] a) throws Exception {
        StubDatabase db = StubDatabase.reset("layout");
        BenchPool pool = PoolKind.parse(a[0]).get(0).start(PoolSettings.fixed(db.url(), 6, Duration.ofSeconds(30)));
        javax.sql.DataSource ds = pool.dataSource();
        Thread[] ts = new Thread[4];
        long end = System.nanoTime() + Long.parseLong(a[1]) * 1_000_000_000L;
        for (int i = 0; i < ts.length; i++) {
            ts[i] = new Thread(() -> {
                try { while (System.nanoTime() < end) { Connection c = ds.getConnection(); c.close(); } }
                catch (Exception e) { throw new RuntimeException(e); }
            });
            ts[i].start();
        }
        for (Thread t : ts) t.join();
        if (a.length > 2) System.gc();
        IdentityHashMap<Object, String> seen = new IdentityHashMap<>();
        ArrayDeque<Node> q = new ArrayDeque<>();
        q.add(new Node(ds, "ds"));
        seen.put(ds, "ds");
        while (!q.isEmpty()) {
            Node n = q.poll();
            Object o = n.o();
            Class<?> c = o.getClass();
            if (c.isArray()) {
                if (!c.getComponentType().isPrimitive()) {
                    Object[] arr = (Object[]) o;
                    for (int i = 0; i < arr.length; i++) add(arr[i], n.path() + "[" + i + "]", seen, q);
                }
                continue;
            }
            if (!interesting(c)) continue;
            for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
                for (Field f : k.getDeclaredFields()) {
                    if (Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) continue;
                    try { f.setAccessible(true); } catch (RuntimeException e) { continue; }
                    try { add(f.get(o), n.path() + "." + f.getName(), seen, q); } catch (IllegalAccessException e) { }
                }
            }
        }
        List<Object> objs = new ArrayList<>(seen.keySet());
        objs.sort(Comparator.comparingLong(o -> VM.current().addressOf(o)));
        for (Object o : objs) {
            long ad = VM.current().addressOf(o);
            long sz;
            try { sz = VM.current().sizeOf(o); } catch (RuntimeException e) { sz = 16; }
            System.out.printf("%x-%x line %x..%x %4d %s %s%n", ad, ad + sz, ad >> 6, (ad + sz - 1) >> 6, sz,
                    o.getClass().getSimpleName(), seen.get(o));
        }
        pool.close();
    }
    static boolean interesting(Class<?> c) {
        String n = c.getName();
        return !(n.startsWith("java.lang.Class") || n.startsWith("java.lang.ClassLoader") || n.startsWith("jdk.internal.loader") || n.contains("Logger") || n.startsWith("java.lang.Module") || n.startsWith("java.lang.invoke") || n.startsWith("java.lang.ref"));
    }
    static void add(Object v, String path, IdentityHashMap<Object, String> seen, ArrayDeque<Node> q) {
        if (v == null || seen.containsKey(v)) return;
        if (v instanceof Class || v instanceof ClassLoader || v instanceof Module || seen.size() > 50000) return;
        seen.put(v, path);
        q.add(new Node(v, path));
    }
}
