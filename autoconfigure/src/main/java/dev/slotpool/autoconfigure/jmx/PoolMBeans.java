package dev.slotpool.autoconfigure.jmx;

import dev.slotpool.OriginSnapshot;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.autoconfigure.PoolAccessPolicy;
import dev.slotpool.autoconfigure.PoolActionInput;
import dev.slotpool.autoconfigure.PoolActions;
import dev.slotpool.autoconfigure.PoolActions.Outcome;
import dev.slotpool.autoconfigure.PoolActions.Problem;
import dev.slotpool.autoconfigure.SlotPools;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.util.ObjectUtils;

import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanOperationInfo;
import javax.management.MBeanParameterInfo;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.NotCompliantMBeanException;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * slotpool's MBeans, what HikariCP's {@code registerMbeans} gives its users (docs/operations.md, JMX): one
 * {@code dev.slotpool:type=Pool,name=<pool key>} per pool and one
 * {@code dev.slotpool:type=Origin,pool=<pool key>,name=<origin>} per origin the pool has at startup (the key is
 * the one meters and the endpoint use, {@link SlotPools}), registered
 * once every singleton exists and unregistered before the pools close. Attributes read a fresh snapshot each;
 * operations go through {@link PoolActions}, as the endpoint's do, and a refusal raises
 * {@link IllegalArgumentException} with the endpoint's message, the pool unchanged. With
 * {@code management.endpoint.pool.access} read-only (the default) the MBeans have attributes only; with
 * {@code none} there are none.
 */
public final class PoolMBeans implements SmartInitializingSingleton, DisposableBean {

    public static final String DOMAIN = "dev.slotpool";

    private static final Log logger = LogFactory.getLog(PoolMBeans.class);

    /** JMX names no caller: the audit line says the door. */
    private static final PoolActions.Caller JMX = new PoolActions.Caller("jmx", null);

    /** What the MBeans may do: {@code management.endpoint.pool.access}, one setting for the endpoint and JMX. */
    public enum Access { NONE, READ_ONLY, UNRESTRICTED }

    private final SlotPools pools;
    private final MBeanServer server;
    private final Access access;
    private final boolean uniqueNames;
    private final List<ObjectName> registered = new ArrayList<>();

    public PoolMBeans(SlotPools pools, MBeanServer server, Access access, boolean uniqueNames) {
        this.pools = pools;
        this.server = server;
        this.access = access;
        this.uniqueNames = uniqueNames;
    }

    @Override
    public void afterSingletonsInstantiated() {
        if (access == Access.NONE) {
            return;
        }
        boolean operations = access == Access.UNRESTRICTED;
        pools.all().forEach((key, pool) -> {
            String identity = uniqueNames ? ",identity=" + ObjectUtils.getIdentityHexString(pool) : "";
            register("type=Pool,name=" + value(key) + identity, new PoolBean(pool),
                    operations ? PoolOperations.class : PoolAttributes.class);
            for (OriginSnapshot o : pool.snapshot().origins()) {
                register("type=Origin,pool=" + value(key) + ",name=" + value(o.name()) + identity,
                        new OriginBean(pool, key, o.name()), operations ? OriginOperations.class : OriginAttributes.class);
            }
        });
    }

    /** The names this registered, in order. */
    public List<ObjectName> objectNames() {
        return List.copyOf(registered);
    }

    @Override
    public void destroy() {
        for (ObjectName name : registered) {
            try {
                server.unregisterMBean(name);
            } catch (InstanceNotFoundException alreadyGone) {
                // unregistered by someone else: nothing left to undo
            } catch (JMException e) {
                logger.warn("Could not unregister " + name + ": " + e);
            }
        }
        registered.clear();
    }

    private <T> void register(String keys, T bean, Class<? super T> face) {
        ObjectName name;
        try {
            name = new ObjectName(DOMAIN + ":" + keys);
            server.registerMBean(new Named<>(bean, face), name);
        } catch (InstanceAlreadyExistsException e) {
            // As HikariCP: a second pool of the same name in this JVM gets no MBean rather than failing startup.
            logger.warn("An MBean named " + e.getMessage() + " exists already (another pool of that name in this "
                    + "JVM?); set spring.jmx.unique-names=true or name the pools apart. Not registered.");
            return;
        } catch (JMException e) {
            throw new IllegalStateException("Could not register the slotpool MBean " + keys, e);
        }
        registered.add(name);
    }

    /** An ObjectName value: as written when it may be, quoted when it holds a character the syntax reserves. */
    private static String value(String raw) {
        try {
            new ObjectName(DOMAIN, "k", raw);
            return raw;
        } catch (MalformedObjectNameException e) {
            return ObjectName.quote(raw);
        }
    }

    /** A pool's attributes; names as HikariCP's pool MBean has them come last. */
    public interface PoolAttributes {
        String getName();
        boolean isClosed();
        boolean isSuspended();
        int getMinSize();
        int getMaxSize();
        int getTotal();
        int getAvailable();
        int getBorrowed();
        int getCreating();
        int getClosing();
        int getWaiting();
        long getOldestWaitMillis();
        long getBorrows();
        long getTimeouts();
        long getConnectionsOpened();
        long getConnectionsClosed();
        String getLastCreationFailure();
        int getActiveConnections();
        int getIdleConnections();
        int getTotalConnections();
        int getThreadsAwaitingConnection();
    }

    /** A pool's operations: {@code origin} is an origin's name or a selector such as {@code host=db3}. */
    public interface PoolOperations extends PoolAttributes {
        boolean suspend(String timeout) throws InterruptedException;
        void resume();
        String rebalance(String weights);
        String drain(String origin, String timeout);
        String markDown(String origin);
        String markUp(String origin);
    }

    public interface OriginAttributes {
        String getName();
        String getPool();
        String getUrl();
        String getState();
        String getStateReason();
        int getWeight();
        double getTargetShare();
        double getActualShare();
        int getTotal();
        int getAvailable();
        int getBorrowed();
        int getCreating();
        int getClosing();
        long getBorrows();
        int getConsecutiveFailures();
    }

    public interface OriginOperations extends OriginAttributes {
        String drain(String timeout);
        String markDown();
        String markUp();
    }

    /** The outcome of an applied action, or the refusal as an IllegalArgumentException. */
    private static String outcome(PoolActions.Result result) {
        if (result instanceof Outcome o) {
            return o.outcome();
        }
        throw new IllegalArgumentException(((Problem) result).message());
    }

    private static String orNull(String text) {
        return text == null || text.isBlank() ? null : text.trim();
    }

    /**
     * JMX names no reader, so its attributes show what a web reader who may not act sees (docs/console.md, Security
     * model): no origin URL, failure texts without client addresses or user names.
     */
    private static String forReaders(SlotPoolDataSource pool, String text) {
        return text == null ? null : PoolAccessPolicy.forReaders(pool.config()).apply(text);
    }

    static final class PoolBean implements PoolOperations {

        private final SlotPoolDataSource pool;

        PoolBean(SlotPoolDataSource pool) {
            this.pool = pool;
        }

        private PoolSnapshot s() {
            return pool.snapshot();
        }

        @Override public String getName() { return s().name(); }
        @Override public boolean isClosed() { return pool.isClosed(); }
        @Override public boolean isSuspended() { return pool.isSuspended(); }
        @Override public int getMinSize() { return s().minSize(); }
        @Override public int getMaxSize() { return s().maxSize(); }
        @Override public int getTotal() { return s().total(); }
        @Override public int getAvailable() { return s().available(); }
        @Override public int getBorrowed() { return s().borrowed(); }
        @Override public int getCreating() { return s().creating(); }
        @Override public int getClosing() { return s().closing(); }
        @Override public int getWaiting() { return s().waiting(); }
        @Override public long getOldestWaitMillis() { return s().oldestWaitMillis(); }
        @Override public long getBorrows() { return s().borrows(); }
        @Override public long getTimeouts() { return s().timeouts(); }
        @Override public long getConnectionsOpened() { return s().connectionsOpened(); }
        @Override public long getConnectionsClosed() { return s().connectionsClosed(); }
        @Override public String getLastCreationFailure() { return forReaders(pool, s().lastCreationFailure().orElse(null)); }
        @Override public int getActiveConnections() { return getBorrowed(); }
        @Override public int getIdleConnections() { return getAvailable(); }
        @Override public int getTotalConnections() { return getTotal(); }
        @Override public int getThreadsAwaitingConnection() { return getWaiting(); }

        /** Takes the pool out of service (docs/architecture.md, Checkpoint and restore); null waits 30s. */
        @Override
        public boolean suspend(String timeout) throws InterruptedException {
            Duration t = PoolActionInput.drainTimeout(orNull(timeout));
            return pool.suspend(t);
        }

        @Override
        public void resume() {
            pool.resume();
        }

        @Override
        public String rebalance(String weights) {
            return outcome(PoolActions.apply(pool, null, () -> PoolActionInput.rebalance(orNull(weights)), JMX));
        }

        @Override
        public String drain(String origin, String timeout) {
            return outcome(PoolActions.apply(pool, origin,
                    () -> PoolActions.Action.drain(PoolActionInput.drainTimeout(orNull(timeout))), JMX));
        }

        @Override
        public String markDown(String origin) {
            return outcome(PoolActions.apply(pool, origin, PoolActions.Action.down(), JMX));
        }

        @Override
        public String markUp(String origin) {
            return outcome(PoolActions.apply(pool, origin, PoolActions.Action.up(), JMX));
        }
    }

    static final class OriginBean implements OriginOperations {

        private final SlotPoolDataSource pool;
        private final String key;
        private final String origin;

        OriginBean(SlotPoolDataSource pool, String key, String origin) {
            this.pool = pool;
            this.key = key;
            this.origin = origin;
        }

        private OriginSnapshot o() {
            PoolSnapshot s = pool.snapshot();
            return s.origin(origin).orElseThrow(() -> new IllegalStateException(PoolActionInput.unknownOrigin(origin, s)));
        }

        @Override public String getName() { return origin; }
        @Override public String getPool() { return key; }
        @Override public String getUrl() { return o().url() == null ? null : SanitizableData.SANITIZED_VALUE; }
        @Override public String getState() { return o().state().name(); }
        @Override public String getStateReason() { return forReaders(pool, o().stateReason()); }
        @Override public int getWeight() { return o().weight(); }
        @Override public double getTargetShare() { return o().targetShare(); }
        @Override public double getActualShare() { return o().actualShare(); }
        @Override public int getTotal() { return o().total(); }
        @Override public int getAvailable() { return o().available(); }
        @Override public int getBorrowed() { return o().borrowed(); }
        @Override public int getCreating() { return o().creating(); }
        @Override public int getClosing() { return o().closing(); }
        @Override public long getBorrows() { return o().borrows(); }
        @Override public int getConsecutiveFailures() { return o().consecutiveFailures(); }

        @Override
        public String drain(String timeout) {
            return outcome(PoolActions.apply(pool, origin,
                    () -> PoolActions.Action.drain(PoolActionInput.drainTimeout(orNull(timeout))), JMX));
        }

        @Override
        public String markDown() {
            return outcome(PoolActions.apply(pool, origin, PoolActions.Action.down(), JMX));
        }

        @Override
        public String markUp() {
            return outcome(PoolActions.apply(pool, origin, PoolActions.Action.up(), JMX));
        }
    }

    /** A standard MBean whose operations' parameters carry their names (JMX consoles show p1, p2 otherwise). */
    private static final class Named<T> extends StandardMBean {

        private static final Map<String, List<String>> PARAMETERS = Map.of(
                "suspend", List.of("timeout"),
                "rebalance", List.of("weights"),
                "markDown", List.of("origin"),
                "markUp", List.of("origin"));

        <I> Named(T bean, Class<I> face) throws NotCompliantMBeanException {
            super(face.cast(bean), face);
        }

        @Override
        protected String getParameterName(MBeanOperationInfo op, MBeanParameterInfo param, int sequence) {
            if (op.getName().equals("drain")) {
                return op.getSignature().length == 2 ? List.of("origin", "timeout").get(sequence) : "timeout";
            }
            List<String> names = PARAMETERS.get(op.getName());
            return names != null && sequence < names.size() ? names.get(sequence) : super.getParameterName(op, param, sequence);
        }
    }
}
