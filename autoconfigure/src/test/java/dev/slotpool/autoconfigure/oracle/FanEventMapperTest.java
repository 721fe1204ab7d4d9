package dev.slotpool.autoconfigure.oracle;

import dev.slotpool.OriginConfig;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.OriginState;
import dev.slotpool.SlotPoolDataSource;
import dev.slotpool.testsupport.StubDatabase;
import oracle.simplefan.LoadAdvisoryEvent;
import oracle.simplefan.NodeDownEvent;
import oracle.simplefan.NodeUpEvent;
import oracle.simplefan.ServiceDownEvent;
import oracle.simplefan.ServiceUpEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.time.Duration;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

/**
 * FAN events (simplefan's own types, mocked: there is no RAC here) against a real pool on the stub driver with
 * three origins of service {@code sales}: east (orcl1 on rac1), west (orcl2 on rac2), north (orcl3 on rac3).
 * Housekeeping is slowed to 10 minutes so a drained origin stays DRAINING while the test looks at it.
 */
@ExtendWith(OutputCaptureExtension.class)
class FanEventMapperTest {

    private SlotPoolDataSource pool;
    private FanEventMapper mapper;

    @BeforeEach
    void threeOrigins() {
        pool = SlotPoolDataSource.builder().name("fan").minSize(3).maxSize(6)
                .housekeepingPeriod(Duration.ofMinutes(10))
                .origin(origin("east", "orcl1", "rac1"))
                .origin(origin("west", "orcl2", "rac2"))
                .origin(origin("north", "orcl3", "rac3"))
                .build();
        // build() returns at the first connection; a drain of an origin still without one would end at once.
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!pool.snapshot().origins().stream().allMatch(o -> o.total() > 0)) {
            assertThat(System.nanoTime() - deadline).as("a connection on every origin").isNegative();
            LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
        }
        mapper = new FanEventMapper(pool, Duration.ofSeconds(45));
    }

    private static OriginConfig origin(String name, String instance, String host) {
        return OriginConfig.named(name).url(StubDatabase.reset("fan-" + name).url())
                .service("sales").instance(instance).host(host);
    }

    @AfterEach
    void close() {
        pool.close();
    }

    // ---- simplefan events, mocked -----------------------------------------------------------------------------

    private static ServiceDownEvent serviceDown(ServiceDownEvent.Reason reason, int drainTimeout, String service,
                                                String instance, String host) {
        ServiceDownEvent e = mock(ServiceDownEvent.class);
        when(e.getServiceName()).thenReturn(service);
        when(e.getReason()).thenReturn(reason);
        when(e.getDrainTimeout()).thenReturn(drainTimeout);
        if (instance == null) {
            when(e.getKind()).thenReturn(ServiceDownEvent.EventKind.COMPOSITE);
        } else {
            ServiceDownEvent.ServiceMemberEvent member = mock(ServiceDownEvent.ServiceMemberEvent.class);
            when(member.getInstanceName()).thenReturn(instance);
            when(member.getNodeName()).thenReturn(host);
            when(e.getKind()).thenReturn(ServiceDownEvent.EventKind.MEMBER);
            when(e.getServiceMemberEvent()).thenReturn(member);
        }
        return e;
    }

    private static ServiceUpEvent serviceUp(String service, String instance, String host) {
        ServiceUpEvent e = mock(ServiceUpEvent.class);
        ServiceUpEvent.ServiceMemberEvent member = mock(ServiceUpEvent.ServiceMemberEvent.class);
        when(member.getInstanceName()).thenReturn(instance);
        when(member.getNodeName()).thenReturn(host);
        when(e.getKind()).thenReturn(ServiceUpEvent.EventKind.MEMBER);
        when(e.getServiceName()).thenReturn(service);
        when(e.getReason()).thenReturn(ServiceUpEvent.Reason.USER);
        when(e.getServiceMemberEvent()).thenReturn(member);
        return e;
    }

    private static NodeDownEvent nodeDown(String host) {
        NodeDownEvent e = mock(NodeDownEvent.class);
        when(e.getNodeName()).thenReturn(host);
        return e;
    }

    private static NodeUpEvent nodeUp(String host) {
        NodeUpEvent e = mock(NodeUpEvent.class);
        when(e.getNodeName()).thenReturn(host);
        return e;
    }

    /** One advisory notification: simplefan delivers one event per instance, all with the notification's time. */
    private void advisory(String service, Map<String, Integer> percentByInstance) {
        Date notification = new Date();
        percentByInstance.forEach((instance, percent) -> {
            LoadAdvisoryEvent e = mock(LoadAdvisoryEvent.class);
            when(e.getTimestamp()).thenReturn(notification);
            when(e.getServiceName()).thenReturn(service);
            when(e.getInstanceName()).thenReturn(instance);
            when(e.getPercent()).thenReturn(percent);
            when(e.getLoadStatus()).thenReturn(LoadAdvisoryEvent.LoadStatus.GOOD);
            mapper.handleEvent(e);
        });
    }

    private static Map<String, Integer> percents(Object... instanceThenPercent) {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (int i = 0; i < instanceThenPercent.length; i += 2) {
            m.put((String) instanceThenPercent[i], (Integer) instanceThenPercent[i + 1]);
        }
        return m;
    }

    private OriginSnapshot origin(String name) {
        return pool.snapshot().origin(name).orElseThrow();
    }

    private Map<String, OriginState> states() {
        Map<String, OriginState> m = new LinkedHashMap<>();
        pool.snapshot().origins().forEach(o -> m.put(o.name(), o.state()));
        return m;
    }

    private Map<String, Integer> weights() {
        Map<String, Integer> m = new LinkedHashMap<>();
        pool.snapshot().origins().forEach(o -> m.put(o.name(), o.weight()));
        return m;
    }

    // ---- DOWN ---------------------------------------------------------------------------------------------------

    @Test
    void plannedServiceMemberDownDrainsTheMatchingOriginWithTheEventsTimeout(CapturedOutput output) {
        mapper.handleEvent(serviceDown(ServiceDownEvent.Reason.USER, 120, "sales", "orcl1", "rac1"));

        assertThat(states()).containsExactly(Map.entry("east", OriginState.DRAINING),
                Map.entry("west", OriginState.UP), Map.entry("north", OriginState.UP));
        assertThat(origin("east").stateReason()).isEqualTo("drain requested (timeout 120000 ms)");
        assertThat(output).contains("FAN service MEMBER DOWN [service=sales instance=orcl1 host=rac1]",
                "reason USER (planned), drain timeout 120s from the event", "drain [east]");
    }

    @Test
    void plannedDownWithoutATimeoutDrainsWithTheDefault() {
        mapper.handleEvent(serviceDown(ServiceDownEvent.Reason.USER, 0, "sales", "orcl2", "rac2"));

        assertThat(origin("west").state()).isEqualTo(OriginState.DRAINING);
        assertThat(origin("west").stateReason()).isEqualTo("drain requested (timeout 45000 ms)");
    }

    @Test
    void plannedCompositeDownDrainsEveryOriginOfTheService() {
        mapper.handleEvent(serviceDown(ServiceDownEvent.Reason.USER, 60, "sales", null, null));

        assertThat(states()).containsOnlyKeys("east", "west", "north").allSatisfy(
                (name, state) -> assertThat(state).as(name).isEqualTo(OriginState.DRAINING));
    }

    @ParameterizedTest
    @EnumSource(value = ServiceDownEvent.Reason.class, names = "USER", mode = EnumSource.Mode.EXCLUDE)
    void anyOtherReasonMarksTheOriginDown(ServiceDownEvent.Reason reason) {
        mapper.handleEvent(serviceDown(reason, 120, "sales", "orcl3", "rac3"));

        assertThat(states()).containsExactly(Map.entry("east", OriginState.UP),
                Map.entry("west", OriginState.UP), Map.entry("north", OriginState.DOWN));
        assertThat(origin("north").stateReason()).isEqualTo("marked down");
    }

    @Test
    void nodeDownMarksDownEveryOriginOnTheHost(CapturedOutput output) {
        mapper.handleEvent(nodeDown("rac2"));

        assertThat(states()).containsExactly(Map.entry("east", OriginState.UP),
                Map.entry("west", OriginState.DOWN), Map.entry("north", OriginState.UP));
        assertThat(output).contains("FAN node DOWN [host=rac2] (unplanned, incarnation 0): markDown [west]");
    }

    @Test
    void matchingIgnoresCase() {
        mapper.handleEvent(serviceDown(ServiceDownEvent.Reason.FAILURE, 0, "SALES", "ORCL1", "Rac1"));

        assertThat(origin("east").state()).isEqualTo(OriginState.DOWN);
    }

    // ---- UP -----------------------------------------------------------------------------------------------------

    @Test
    void serviceUpAndNodeUpMarkTheOriginsUpAgain() {
        mapper.handleEvent(serviceDown(ServiceDownEvent.Reason.FAILURE, 0, "sales", "orcl1", "rac1"));
        mapper.handleEvent(nodeDown("rac2"));
        assertThat(states()).containsExactly(Map.entry("east", OriginState.DOWN),
                Map.entry("west", OriginState.DOWN), Map.entry("north", OriginState.UP));

        mapper.handleEvent(serviceUp("sales", "orcl1", "rac1"));
        assertThat(origin("east").state()).isEqualTo(OriginState.UP);
        assertThat(origin("east").stateReason()).isEqualTo("marked up");
        assertThat(origin("west").state()).isEqualTo(OriginState.DOWN);

        mapper.handleEvent(nodeUp("rac2"));
        assertThat(states()).containsExactly(Map.entry("east", OriginState.UP),
                Map.entry("west", OriginState.UP), Map.entry("north", OriginState.UP));
    }

    // ---- load advisory ------------------------------------------------------------------------------------------

    @Test
    void loadAdvisoryRebalancesToTheAdvisedPercentages(CapturedOutput output) {
        assertThat(weights()).containsExactly(Map.entry("east", 1), Map.entry("west", 1), Map.entry("north", 1));

        advisory("sales", percents("orcl1", 70, "orcl2", 20, "orcl3", 10));

        assertThat(weights()).containsExactly(Map.entry("east", 70), Map.entry("west", 20), Map.entry("north", 10));
        assertThat(output).contains("advised orcl1=70%, orcl2=20%, orcl3=10%): rebalance {east=70, west=20, north=10}");
    }

    @Test
    void anAdvisoryRepeatingTheCurrentWeightsChangesNothingAndLogsNoAction(CapturedOutput output) {
        advisory("sales", percents("orcl1", 70, "orcl2", 20, "orcl3", 10));
        int actions = count(output.getAll(), ": rebalance {");

        advisory("sales", percents("orcl1", 70, "orcl2", 20, "orcl3", 10));

        assertThat(weights()).containsExactly(Map.entry("east", 70), Map.entry("west", 20), Map.entry("north", 10));
        assertThat(count(output.getAll(), ": rebalance {")).isEqualTo(actions);
    }

    @Test
    void originsTheAdvisoryDoesNotNameKeepTheirWeights() {
        advisory("sales", percents("orcl1", 60, "orcl9", 40));

        assertThat(weights()).containsExactly(Map.entry("east", 60), Map.entry("west", 1), Map.entry("north", 1));
    }

    @Test
    void anAdvisoryOfOnlyZeroesIsIgnoredWithALogLine(CapturedOutput output) {
        advisory("sales", percents("orcl1", 0, "orcl2", 0, "orcl3", 0));

        assertThat(weights()).containsExactly(Map.entry("east", 1), Map.entry("west", 1), Map.entry("north", 1));
        assertThat(output).contains("every advised percentage is 0; ignored, weights unchanged");
        assertThat(count(output.getAll(), "every advised percentage is 0")).as("logged once per advisory")
                .isEqualTo(1);
    }

    // ---- nothing to do, and refusals ----------------------------------------------------------------------------

    @Test
    void anEventMatchingNoOriginChangesNothing(CapturedOutput output) {
        mapper.handleEvent(serviceDown(ServiceDownEvent.Reason.FAILURE, 0, "hr", "orcl1", "rac1"));
        mapper.handleEvent(nodeDown("rac9"));
        advisory("hr", percents("orcl1", 70, "orcl2", 30));

        assertThat(states()).containsExactly(Map.entry("east", OriginState.UP), Map.entry("west", OriginState.UP),
                Map.entry("north", OriginState.UP));
        assertThat(weights()).containsExactly(Map.entry("east", 1), Map.entry("west", 1), Map.entry("north", 1));
        assertThat(output).doesNotContain("markDown [", "rebalance {");
    }

    @Test
    void anOriginWithoutADimensionTheEventNamesDoesNotMatch() {
        ServiceDownEvent e = serviceDown(ServiceDownEvent.Reason.FAILURE, 0, "sales", "orcl1", "rac1");
        when(e.getDatabaseUniqueName()).thenReturn("orcl"); // the origins configure no database

        mapper.handleEvent(e);

        assertThat(origin("east").state()).isEqualTo(OriginState.UP);
    }

    @Test
    void aRebalanceTheEngineRefusesIsLoggedAndNeverThrown(CapturedOutput output) {
        // All the load to an instance the pool does not know: every known origin would get 0, which the engine
        // refuses (at least one weight must be > 0), all or nothing.
        assertThatCode(() -> advisory("sales", percents("orcl1", 0, "orcl2", 0, "orcl3", 0, "orcl4", 100)))
                .doesNotThrowAnyException();

        assertThat(weights()).containsExactly(Map.entry("east", 1), Map.entry("west", 1), Map.entry("north", 1));
        assertThat(output).contains("WARN").contains("rebalance {east=0, west=0, north=0} refused by the pool, "
                + "weights unchanged: rebalance rejected: at least one origin needs a weight > 0");
    }

    @Test
    void aBrokenEventIsLoggedAndNeverThrown(CapturedOutput output) {
        ServiceDownEvent broken = mock(ServiceDownEvent.class);
        when(broken.getServiceName()).thenThrow(new IllegalStateException("corrupt notification"));

        assertThatCode(() -> mapper.handleEvent(broken)).doesNotThrowAnyException();
        assertThat(output).contains("FAN service DOWN event not applied: java.lang.IllegalStateException: "
                + "corrupt notification");
        assertThat(states()).containsExactly(Map.entry("east", OriginState.UP), Map.entry("west", OriginState.UP),
                Map.entry("north", OriginState.UP));
    }

    private static int count(String text, String fragment) {
        int n = 0;
        for (int i = text.indexOf(fragment); i >= 0; i = text.indexOf(fragment, i + 1)) {
            n++;
        }
        return n;
    }
}
