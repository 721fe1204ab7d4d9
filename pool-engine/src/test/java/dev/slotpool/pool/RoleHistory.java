package dev.slotpool.pool;

import dev.slotpool.OriginConfig;
import dev.slotpool.OriginState;
import dev.slotpool.ServerRole;
import dev.slotpool.SlotState;
import dev.slotpool.failover.RoleReading;
import dev.slotpool.jdbc.ProxyConnection;
import dev.slotpool.origins.Origin;
import dev.slotpool.pool.MisbehavingUserCode.InjectedError;
import dev.slotpool.slots.PooledConnection;
import dev.slotpool.testsupport.StubDatabase;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * One randomized history of a pool over a primary and a standby of one family, on stub servers that answer
 * PostgreSQL's role query (docs/reliability.md, "Pool-level model check"): the operator thread fails the primary
 * over (it dies, the standby is promoted on the next timeline), rebuilds the dead one as a standby, moves the
 * standby's replica lag (within and beyond the bound, unknown), makes role queries fail ({@code 57014}), suspends
 * and resumes, drains, marks down and up, while workers write and, with reads to standbys, read; the listener throws
 * now and then ({@link MisbehavingUserCode}).
 *
 * <p>Checked: a write borrow is lent only to an origin the pool read as PRIMARY just before and just after (a
 * reading that changes in between is a race the check leaves alone); a read borrow lent by a standby kept for
 * reads had a lag within the bound, or was read as promoted, by the readings around it. At rest: nothing being
 * created, the pool's room equal to its live slots plus its own sessions and to the servers' open connections, a
 * suspend that empties the pool, and, once the history settles with one live primary, that primary takes writes.
 * After close(): no role watcher or switchover worker of the pool alive.
 */
final class RoleHistory {

    private static final Duration MAX_LAG = Duration.ofMillis(500);
    private static final long SETTLE_NANOS = TimeUnit.SECONDS.toNanos(20);

    private enum Role { PRIMARY, STANDBY, DEAD }

    private final long seed;
    private final Random rnd;
    private final String name;
    private final Queue<String> violations = new ConcurrentLinkedQueue<>();
    private final List<String> story = new CopyOnWriteArrayList<>();
    private final StubDatabase[] servers = {StubDatabase.reset("roles-a").productName("PostgreSQL"),
            StubDatabase.reset("roles-b").productName("PostgreSQL")};
    private final String[] names = {"a", "b"};
    private final Role[] roles = {Role.PRIMARY, Role.STANDBY};
    private long timeline = 1;
    private final boolean readsToStandbys;
    private final MisbehavingUserCode user;
    private final ConnectionPool pool;
    /** Origins an operator holds DOWN or DRAINING: the history's end marks them up. */
    private final Set<String> operatorHeld = new HashSet<>();
    private volatile boolean working = true;

    RoleHistory(long seed, boolean errors) {
        this.seed = seed;
        this.rnd = new Random(seed * 0x9E3779B97F4A7C15L);
        this.name = "model-roles-" + seed;
        this.readsToStandbys = rnd.nextBoolean();
        this.user = new MisbehavingUserCode(errors, false, false);
        answer(0);
        answer(1);
        this.pool = new ConnectionPool(Pools.stub(servers[0]).name(name).url(null)
                .origin(OriginConfig.named("a").url(servers[0].url()))
                .origin(OriginConfig.named("b").url(servers[1].url()))
                .minSize(2 + rnd.nextInt(2)).maxSize(4 + rnd.nextInt(2))
                .borrowTimeout(Duration.ofMillis(500)).creationBackoffMax(Duration.ofMillis(100))
                .housekeepingPeriod(Duration.ofMillis(10))
                .readsToStandbys(readsToStandbys).maxReplicaLag(MAX_LAG)
                .downGracePeriod(Duration.ZERO)
                .listener(user)
                .config());
    }

    /** The server's role query answer and write refusal, from the model. */
    private void answer(int i) {
        answer(i, 0L);
    }

    private void answer(int i, Long lagMillis) {
        boolean standby = roles[i] == Role.STANDBY;
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("in_recovery", standby);
        row.put("cluster", "42");
        row.put("transaction_read_only", standby ? "on" : "off");
        row.put("default_read_only", "off");
        row.put("timeline", standby ? null : timeline);
        row.put("lag_bytes", standby ? (lagMillis == null || lagMillis > 0 ? 8192L : 0L) : null);
        row.put("lag_millis", standby ? lagMillis : null);
        row.put("receiver", standby ? "streaming" : null);
        servers[i].answer("pg_is_in_recovery", row).readOnly(standby).down(roles[i] == Role.DEAD);
    }

    List<String> run() throws InterruptedException {
        List<Thread> workers = new ArrayList<>();
        try {
            // Both servers read once, so that a failed role query later is one on a server whose role is known.
            if (!settle(() -> pool.failover.roles().roles().reading("a") != null
                    && pool.failover.roles().roles().reading("b") != null)) {
                violation("the roles were never read: " + pool.snapshot().summary());
            }
            int n = 2 + rnd.nextInt(3);
            for (int i = 0; i < n; i++) {
                Random r = new Random(seed * 1_000_003L + i);
                workers.add(start("worker-" + i, () -> work(r)));
            }
            operate();
            working = false;
            for (Thread w : workers) {
                w.join(TimeUnit.NANOSECONDS.toMillis(SETTLE_NANOS));
            }
            settleWrites();
            if (violations.isEmpty()) {
                atRest();
            }
        } finally {
            working = false;
            closePool();
        }
        return List.copyOf(violations);
    }

    String summary() {
        return "reads to standbys " + readsToStandbys + ", " + story.size() + " operator calls, timeline " + timeline;
    }

    // ---- the operator ---------------------------------------------------------------------------------------

    private void operate() {
        int ops = 25 + rnd.nextInt(25);
        for (int i = 0; i < ops && violations.isEmpty(); i++) {
            try {
                step();
            } catch (InjectedError expected) {
                // a listener threw on the operator's call: the pool must cope
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                violation("operator call threw " + e);
            }
            pool.failover.roles().suspect(); // the watch reads every 20 ms, so the history moves on its time scale
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(rnd.nextInt(60)));
        }
    }

    private void step() throws InterruptedException {
        int i = rnd.nextInt(2);
        String o = names[i];
        int dice = rnd.nextInt(100);
        if (dice < 12) {
            failover();
        } else if (dice < 20) {
            rebuild();
        } else if (dice < 32) {
            int s = roles[0] == Role.STANDBY ? 0 : roles[1] == Role.STANDBY ? 1 : -1;
            if (s >= 0) {
                Long[] lags = {0L, 100L, 2_000L, null};
                Long lag = lags[rnd.nextInt(lags.length)];
                story.add("lag " + lag + " on " + names[s]);
                answer(s, lag);
            }
        } else if (dice < 44) {
            // Only on a server read before: UNKNOWN from a server never read is a database without a role query.
            if (pool.failover.roles().roles().reading(o) != null) {
                int k = 1 + rnd.nextInt(3);
                story.add(k + " failed queries on " + o);
                servers[i].failNextQueries(k, "57014");
            }
        } else if (dice < 54) {
            story.add("suspend");
            user.disrupted();
            pool.suspend(Duration.ofMillis(rnd.nextInt(100)));
        } else if (dice < 66) {
            story.add("resume");
            pool.resume();
        } else if (dice < 72) {
            story.add("drain " + o);
            operatorHeld.add(o);
            pool.operations().drain(o, Duration.ofMillis(rnd.nextInt(200)));
        } else if (dice < 78) {
            story.add("markDown " + o);
            operatorHeld.add(o);
            pool.operations().markDown(o);
        } else if (dice < 86) {
            story.add("markUp " + o);
            operatorHeld.remove(o);
            pool.operations().markUp(o);
        } else if (dice < 94) {
            // A checkpoint and restore, then the primary fails: the pool's own states in a row.
            story.add("checkpoint");
            user.disrupted();
            pool.suspend(Duration.ofMillis(rnd.nextInt(100)));
            pool.resume();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(rnd.nextInt(50)));
            failover();
        }
    }

    /** The primary dies; a standby, if there is one, is promoted on the next timeline. */
    private void failover() {
        int p = roles[0] == Role.PRIMARY ? 0 : roles[1] == Role.PRIMARY ? 1 : -1;
        int s = roles[0] == Role.STANDBY ? 0 : roles[1] == Role.STANDBY ? 1 : -1;
        if (p < 0 || s < 0) {
            return;
        }
        story.add("failover " + names[p] + " -> " + names[s]);
        roles[p] = Role.DEAD;
        answer(p);
        servers[p].killLiveConnections();
        promote(s);
    }

    private void promote(int s) {
        timeline++;
        roles[s] = Role.PRIMARY;
        answer(s);
    }

    /** A dead server comes back as a standby of the primary. */
    private void rebuild() {
        int d = roles[0] == Role.DEAD ? 0 : roles[1] == Role.DEAD ? 1 : -1;
        if (d >= 0) {
            story.add("rebuild " + names[d]);
            roles[d] = Role.STANDBY;
            answer(d);
        }
    }

    // ---- the workers ----------------------------------------------------------------------------------------

    private void work(Random r) {
        while (working && violations.isEmpty()) {
            boolean read = readsToStandbys && r.nextInt(100) < 40;
            try {
                borrow(read);
            } catch (InjectedError expected) {
                // a listener threw on the borrow or return path
            } catch (Throwable t) {
                violation("worker: the pool threw " + t);
            }
            LockSupport.parkNanos(r.nextInt(2_000) * 1_000L);
        }
    }

    /** One borrow, checked against the pool's readings just before and just after it was lent. */
    private void borrow(boolean read) {
        RoleReading[] before = readings();
        Connection c;
        try {
            c = read ? pool.borrowForRead() : pool.borrow();
        } catch (SQLException e) {
            return;
        }
        try {
            Origin origin = ((PooledConnection) ((ProxyConnection) c).lease()).origin;
            RoleReading[] after = readings();
            int i = origin.name.equals("a") ? 0 : 1;
            if (!read && !isPrimary(before[i]) && !isPrimary(after[i])) {
                violation("a write borrow was lent a connection of '" + origin.name + "', read as "
                        + describe(before[i]) + " before and " + describe(after[i]) + " after; " + story);
            }
            if (read && origin.keptForReads() && !readable(before[i]) && !readable(after[i])) {
                violation("a read borrow was lent a connection of standby '" + origin.name + "', read as "
                        + describe(before[i]) + " before and " + describe(after[i]) + " after, bound "
                        + MAX_LAG.toMillis() + " ms; " + story);
            }
            try (Statement st = c.createStatement()) {
                if (read) {
                    st.executeQuery("SELECT 1").close();
                } else {
                    st.executeUpdate("UPDATE t SET n = n + 1");
                }
            } catch (SQLException refused) {
                // a server that turned standby or died meanwhile, or an injected failure
            }
        } finally {
            try {
                c.close();
            } catch (SQLException ignored) {
                // a connection taken back meanwhile
            }
        }
    }

    private RoleReading[] readings() {
        return new RoleReading[] {pool.failover.roles().roles().reading("a"), pool.failover.roles().roles().reading("b")};
    }

    private static boolean isPrimary(RoleReading r) {
        return r != null && r.role() == ServerRole.PRIMARY;
    }

    /** A reading by which a read may be served: a primary (a standby's promotion is read before its flag for
     * reads is cleared), or a standby within the lag bound. */
    private static boolean readable(RoleReading r) {
        return isPrimary(r) || withinLag(r);
    }

    private static boolean withinLag(RoleReading r) {
        return r != null && r.role() == ServerRole.STANDBY && r.lagMillis() >= 0
                && r.lagMillis() <= MAX_LAG.toMillis();
    }

    private static String describe(RoleReading r) {
        return r == null ? "never read" : r.role() + " (" + r.detail() + ", lag " + r.lagMillis() + " ms)";
    }

    // ---- the end --------------------------------------------------------------------------------------------

    /** Resumes, marks up what the operator holds, leaves one live primary: it must take writes. */
    private void settleWrites() {
        pool.resume();
        for (String o : operatorHeld) {
            pool.operations().markUp(o);
        }
        if (roles[0] != Role.PRIMARY && roles[1] != Role.PRIMARY) {
            int s = roles[0] == Role.STANDBY ? 0 : 1;
            if (roles[s] != Role.STANDBY) {
                rebuild();
                s = roles[0] == Role.STANDBY ? 0 : 1;
            }
            story.add("promote " + names[s]);
            promote(s);
        }
        pool.failover.roles().suspect();
        int p = roles[0] == Role.PRIMARY ? 0 : 1;
        Origin primary = pool.origins.find(names[p]);
        if (!settle(() -> primary.state() == OriginState.UP && primary.takesWrites()
                && writeLandsOn(names[p]))) {
            violation("the live primary '" + names[p] + "' takes no writes once the history settled: "
                    + pool.snapshot().summary() + "; " + story);
        }
    }

    private boolean writeLandsOn(String origin) {
        try (Connection c = pool.borrow()) {
            return ((PooledConnection) ((ProxyConnection) c).lease()).origin.name.equals(origin);
        } catch (SQLException e) {
            return false;
        }
    }

    /** Nothing being created; the room is the live slots plus the pool's own sessions, and the servers agree; a
     * suspend empties the pool. */
    private void atRest() throws InterruptedException {
        boolean agree = settle(() -> pool.capacity.creating() == 0
                && pool.capacity.occupied() == liveSlots() + pool.capacity.sessions()
                && servers[0].live() + servers[1].live() == liveSlots() + pool.capacity.sessions());
        if (!agree) {
            violation("counts at rest: creating " + pool.capacity.creating() + ", occupied "
                    + pool.capacity.occupied() + ", live slots " + liveSlots() + ", the pool's own sessions "
                    + pool.capacity.sessions() + ", servers' open connections " + (servers[0].live()
                    + servers[1].live()) + "; " + pool.snapshot().summary() + "; " + story);
        }
        if (!pool.suspend(Duration.ofSeconds(2)) || servers[0].live() + servers[1].live() != 0) {
            violation("suspend at rest did not empty the pool: " + pool.snapshot().summary() + ", servers' open "
                    + "connections " + (servers[0].live() + servers[1].live()) + "; " + story);
        }
        pool.resume();
    }

    private void closePool() {
        try {
            pool.close();
        } catch (InjectedError expected) {
            // a listener threw during close(): what it left is checked below
        }
        // The role layer's threads: its watchers and a switchover's worker.
        String prefix = "slotpool-" + name + "-";
        List<String> alive = Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                .filter(n -> n.equals(prefix + "roles") || n.equals(prefix + "switchover")).toList();
        if (!alive.isEmpty()) {
            violation("threads alive after close(): " + alive);
        }
    }

    private int liveSlots() {
        int[] n = {0};
        pool.table.visit((state, e) -> {
            if (state != SlotState.EMPTY && state != SlotState.RESERVED) {
                n[0]++;
            }
            return true;
        });
        return n[0];
    }

    private static boolean settle(BooleanSupplier condition) {
        long deadline = System.nanoTime() + SETTLE_NANOS;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            LockSupport.parkNanos(5_000_000L);
        }
        return true;
    }

    private void violation(String what) {
        if (violations.size() < 10) {
            violations.add("[" + Thread.currentThread().getName() + "] " + what);
        }
    }

    private static Thread start(String name, Runnable body) {
        Thread t = new Thread(body, "model-roles-" + name);
        t.setDaemon(true);
        t.start();
        return t;
    }
}
