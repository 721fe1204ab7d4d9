package dev.slotpool;

import dev.slotpool.testsupport.StubDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** build() reports every bad setting at once, names it, and never rewrites a value. */
class BuilderValidationTest {

    /** A row with a fixed default set to null through the table is refused naming it, as a null duration is. */
    @Test
    void aSettingWithADefaultSetToNullIsNamed() {
        int checked = 0;
        for (Setting<?> s : Setting.all()) {
            if (s.defaultValue() == null) {
                continue;
            }
            SlotPoolBuilder b = SlotPoolDataSource.builder().url("jdbc:h2:mem:null-rows").set(s, null);
            InvalidPoolConfigException e = catchThrowableOfType(InvalidPoolConfigException.class, b::config);
            assertThat(e).as("%s set to null", s.name()).isNotNull();
            assertThat(e.violations()).extracting(ConfigViolation::property).as(s.name()).contains(s.name());
            checked++;
        }
        assertThat(checked).isGreaterThan(25);
    }

    @Test
    void everyViolationIsReportedInOneException() {
        InvalidPoolConfigException e = catchThrowableOfType(InvalidPoolConfigException.class, () ->
                SlotPoolDataSource.builder()
                        .minSize(-1).maxSize(0)
                        .borrowTimeout(Duration.ofSeconds(-1))
                        .creatorThreads(0)
                        .maxLifetime(Duration.ofMillis(10))
                        .housekeepingPeriod(Duration.ZERO)
                        .validationQuery(" ")
                        .build());
        assertThat(e.violations()).extracting(ConfigViolation::property).containsExactlyInAnyOrder(
                "minSize", "maxSize", "borrowTimeout", "creatorThreads", "maxLifetime", "housekeepingPeriod",
                "validationQuery", "url");
        assertThat(e.getMessage()).contains("minSize = -1: must be ≥ 0").contains("8 problems");
    }

    @Test
    void aNegativeStatementCacheSizeIsNamedAndNotRewritten() {
        InvalidPoolConfigException e = catchThrowableOfType(InvalidPoolConfigException.class, () ->
                SlotPoolDataSource.builder().url("jdbc:h2:mem:x").statementCacheSize(-1).config());
        assertThat(e.violations()).singleElement().satisfies(v -> {
            assertThat(v.property()).isEqualTo("statementCacheSize");
            assertThat(v.value()).isEqualTo("-1");
            assertThat(v.problem()).isEqualTo("must be between 0 and 10000");
        });
        assertThat(SlotPoolDataSource.builder().url("jdbc:h2:mem:x").config().statementCacheSize()).isZero();
        assertThat(SlotPoolDataSource.builder().url("jdbc:h2:mem:x").statementCacheSize(10_000).config()
                .statementCacheSize()).isEqualTo(10_000);
    }

    @Test
    void sizingDefaultsToFixedAndAFleetBudgetNeedsAdaptiveWithinItsRange() {
        PoolConfig defaults = SlotPoolDataSource.builder().url("jdbc:h2:mem:x").config();
        assertThat(defaults.sizing()).isEqualTo(Sizing.FIXED);
        assertThat(defaults.fleetBudget()).isZero();
        assertThat(SlotPoolDataSource.builder().url("jdbc:h2:mem:x").sizing(Sizing.ADAPTIVE).minSize(2)
                .fleetBudget(2).config().fleetBudget()).isEqualTo(2);
        InvalidPoolConfigException fixed = catchThrowableOfType(InvalidPoolConfigException.class, () ->
                SlotPoolDataSource.builder().url("jdbc:h2:mem:x").fleetBudget(8).config());
        assertThat(fixed.getMessage()).contains("fleetBudget = 8: needs sizing ADAPTIVE");
        InvalidPoolConfigException low = catchThrowableOfType(InvalidPoolConfigException.class, () ->
                SlotPoolDataSource.builder().url("jdbc:h2:mem:x").sizing(Sizing.ADAPTIVE).minSize(4).fleetBudget(3)
                        .config());
        assertThat(low.getMessage()).contains("fleetBudget = 3: must be 0 (none) or between minSize (4) and 100000");
        InvalidPoolConfigException origins = catchThrowableOfType(InvalidPoolConfigException.class, () ->
                SlotPoolDataSource.builder().sizing(Sizing.ADAPTIVE).minSize(0).fleetBudget(1)
                        .origin(OriginConfig.named("a").url("jdbc:h2:mem:a"))
                        .origin(OriginConfig.named("b").url("jdbc:h2:mem:b")).config());
        assertThat(origins.getMessage()).contains("fleetBudget = 1: must be ≥ the number of origins (2)");
        InvalidPoolConfigException none = catchThrowableOfType(InvalidPoolConfigException.class, () ->
                SlotPoolDataSource.builder().url("jdbc:h2:mem:x").sizing(null).config());
        assertThat(none.getMessage()).contains("sizing = null: must be FIXED or ADAPTIVE");
    }

    /** A first connect's budget and the silence of an origin that answered before (docs/configuration.md). */
    @Test
    void silenceTimeoutDefaultsToTwoSecondsOrTheShorterConnectTimeoutAndMayNotExceedIt() {
        PoolConfig defaults = SlotPoolDataSource.builder().url("jdbc:h2:mem:x").config();
        assertThat(defaults.connectTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(defaults.silenceTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(defaults.initializationFailTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(SlotPoolDataSource.builder().url("jdbc:h2:mem:x").connectTimeout(Duration.ofMillis(500)).config()
                .silenceTimeout()).isEqualTo(Duration.ofMillis(500));
        InvalidPoolConfigException e = catchThrowableOfType(InvalidPoolConfigException.class, () ->
                SlotPoolDataSource.builder().url("jdbc:h2:mem:x").connectTimeout(Duration.ofSeconds(1))
                        .silenceTimeout(Duration.ofSeconds(3)).config());
        assertThat(e.violations()).singleElement().satisfies(v -> {
            assertThat(v.property()).isEqualTo("silenceTimeout");
            assertThat(v.problem()).isEqualTo("must be ≤ connectTimeout (PT1S)");
        });
    }

    @Test
    void sessionSettingsAreChecked() {
        InvalidPoolConfigException e = catchThrowableOfType(InvalidPoolConfigException.class, () ->
                SlotPoolDataSource.builder().url("jdbc:h2:mem:x").transactionIsolation("read-comitted")
                        .catalog("").schema(" ").connectionInitSql("").config());
        assertThat(e.violations()).extracting(ConfigViolation::property).containsExactly(
                "transactionIsolation", "catalog", "schema", "connectionInitSql");
        assertThat(e.violations().get(0).value()).isEqualTo("read-comitted");
    }

    @Test
    void isolationNamesInEverySpellingAreAccepted() {
        for (String name : new String[] {"TRANSACTION_READ_COMMITTED", "READ_COMMITTED", "read-committed",
                "Read Committed"}) {
            assertThat(SlotPoolDataSource.builder().url("jdbc:h2:mem:x").transactionIsolation(name).config()
                    .transactionIsolation()).as(name).isEqualTo(java.sql.Connection.TRANSACTION_READ_COMMITTED);
        }
        assertThat(SlotPoolDataSource.builder().url("jdbc:h2:mem:x").transactionIsolation("serializable").config()
                .transactionIsolation()).isEqualTo(java.sql.Connection.TRANSACTION_SERIALIZABLE);
    }

    @Test
    void minAboveMaxAndInitialOutsideTheRangeAreNamed() {
        InvalidPoolConfigException e = catchThrowableOfType(InvalidPoolConfigException.class, () ->
                SlotPoolDataSource.builder().url("jdbc:h2:mem:x").minSize(5).maxSize(3).initialSize(9).config());
        assertThat(e.violations()).extracting(ConfigViolation::property).containsExactly("minSize", "initialSize");
        assertThat(e.violations().get(0).problem()).contains("≤ maxSize (3)");
    }

    @Test
    void originsAreCheckedTogether() {
        InvalidPoolConfigException e = catchThrowableOfType(InvalidPoolConfigException.class, () ->
                SlotPoolDataSource.builder()
                        .origin(OriginConfig.named("east").url("jdbc:h2:mem:e").weight(-5))
                        .origin(OriginConfig.named("east").url("postgres://nope"))
                        .origin(OriginConfig.named("west"))
                        .config());
        assertThat(e.violations()).extracting(ConfigViolation::toString).containsExactlyInAnyOrder(
                "origins[east].weight = -5: must be ≥ 0",
                "origins[east].name = east: duplicate origin name",
                "origins[east].url = postgres://nope: must be a JDBC URL (jdbc:<subprotocol>:...)",
                "origins[west].url = null: is required (neither the origin nor the pool has a url)");
    }

    @Test
    void allZeroWeightsAreRejected() {
        InvalidPoolConfigException e = catchThrowableOfType(InvalidPoolConfigException.class, () ->
                SlotPoolDataSource.builder().url("jdbc:h2:mem:z")
                        .origin(OriginConfig.named("a").weight(0)).origin(OriginConfig.named("b").weight(0))
                        .config());
        assertThat(e.violations()).extracting(ConfigViolation::property).containsExactly("origins[*].weight");
    }

    @Test
    void secretsNeverAppearInViolationsOrConfigText() {
        InvalidPoolConfigException e = catchThrowableOfType(InvalidPoolConfigException.class, () ->
                SlotPoolDataSource.builder().url("jdbx:oracle:thin:scott/tiger-pw@db").password("tiger-pw")
                        .connectionProperty("password", "tiger-pw").minSize(-1).config());
        assertThat(e.getMessage()).doesNotContain("tiger-pw");
        PoolConfig ok = SlotPoolDataSource.builder().url("jdbc:postgresql://u:tiger-pw@h/db?password=tiger-pw")
                .password("tiger-pw").origin(OriginConfig.named("x").password("tiger-pw")).config();
        assertThat(ok.toString()).doesNotContain("tiger-pw").contains("***");
        assertThat(ok.origins().get(0).password()).as("inherits the pool's password").isEqualTo("tiger-pw");
        assertThat(ok.origins().get(0).connectionProperties()).isEqualTo(Map.of());
    }

    @Test
    void jdbcUrlsLoseTheirCredentials() {
        assertThat(JdbcUrls.redact("jdbc:postgresql://app:pw@db:5432/x?ssl=true&password=pw"))
                .isEqualTo("jdbc:postgresql://***:***@db:5432/x?ssl=true&password=***");
        assertThat(JdbcUrls.redact("jdbc:oracle:thin:scott/tiger@//db:1521/svc"))
                .isEqualTo("jdbc:oracle:thin:***/***@//db:1521/svc");
        assertThat(JdbcUrls.redact("jdbc:sqlserver://db;user=a;password=p;db=x"))
                .isEqualTo("jdbc:sqlserver://db;user=a;password=***;db=x");
        assertThat(JdbcUrls.redact("jdbc:h2:mem:x")).isEqualTo("jdbc:h2:mem:x");
    }

    /** The Duration settings of the builder, found by their setters, so a new one is checked too. */
    private static List<Method> durationSetters() {
        return Arrays.stream(SlotPoolBuilder.class.getDeclaredMethods())
                .filter(m -> Modifier.isPublic(m.getModifiers()) && m.getParameterCount() == 1
                        && m.getParameterTypes()[0] == Duration.class)
                .toList();
    }

    /**
     * Every Duration setting has an upper bound: a value whose nanoseconds overflow a long (or that would push a
     * deadline past the pool's "never") is named at build time, never met as an ArithmeticException in close()
     * or a timer.
     */
    @Test
    void everyDurationSettingIsBoundedAndNamedAtBuildTime() throws Exception {
        List<Method> setters = durationSetters();
        assertThat(setters).hasSizeGreaterThan(15);
        for (Method setter : setters) {
            for (Duration huge : List.of(Duration.ofSeconds(Long.MAX_VALUE), Duration.ofDays(200_000),
                    Duration.ofDays(40 * 365))) {
                SlotPoolBuilder b = SlotPoolDataSource.builder().url("jdbc:h2:mem:bounds");
                setter.invoke(b, huge);
                InvalidPoolConfigException e = catchThrowableOfType(InvalidPoolConfigException.class, b::config);
                assertThat(e).as("%s(%s)", setter.getName(), huge).isNotNull();
                assertThat(e.violations()).as("%s(%s)", setter.getName(), huge).singleElement()
                        .satisfies(v -> assertThat(v.property()).isEqualTo(setter.getName()));
            }
        }
        InvalidPoolConfigException e = catchThrowableOfType(InvalidPoolConfigException.class, () ->
                SlotPoolDataSource.builder().url("jdbc:h2:mem:bounds")
                        .initializationFailTimeout(Duration.ofSeconds(Long.MIN_VALUE)).config());
        assertThat(e.violations()).singleElement()
                .satisfies(v -> assertThat(v.property()).isEqualTo("initializationFailTimeout"));
    }

    /** drain and suspend take a timeout at run time: bounded like the settings, refused before anything changes. */
    @Test
    void operationTimeoutsAreBoundedLikeTheSettings() throws Exception {
        StubDatabase db = StubDatabase.reset("operation-bounds");
        try (SlotPoolDataSource ds = SlotPoolDataSource.builder().url(db.url()).minSize(1).maxSize(1).build()) {
            assertThatThrownBy(() -> ds.drain("default", Duration.ofSeconds(Long.MAX_VALUE)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("drain timeout must be between");
            assertThatThrownBy(() -> ds.drain("default", Duration.ofDays(40 * 365)))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> ds.suspend(Duration.ofDays(200_000)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("suspend timeout must be");
            assertThat(ds.snapshot().origins().get(0).state()).as("nothing changed").isEqualTo(OriginState.UP);
            assertThat(ds.isSuspended()).isFalse();
        }
    }

    /** Weights whose sum overflows an int would make every target share 0: the sum is capped, named at build time. */
    @Test
    void weightsThatAddUpBeyondTheCapAreRejected() {
        InvalidPoolConfigException e = catchThrowableOfType(InvalidPoolConfigException.class, () ->
                SlotPoolDataSource.builder().url("jdbc:h2:mem:w")
                        .origin(OriginConfig.named("east").weight(999_999_999))
                        .origin(OriginConfig.named("west").weight(999_999_999))
                        .origin(OriginConfig.named("north").weight(999_999_999))
                        .config());
        assertThat(e.violations()).extracting(ConfigViolation::toString).containsExactly(
                "origins[*].weight = 2999999997: the weights add up to more than 1000000");
    }

    /** A rebalance's weights are capped the same way; refused, nothing changes. */
    @Test
    void aRebalanceBeyondTheCapIsRefused() throws Exception {
        StubDatabase db = StubDatabase.reset("weight-cap");
        try (SlotPoolDataSource ds = SlotPoolDataSource.builder().url(db.url()).minSize(1).maxSize(2)
                .origin(OriginConfig.named("east").weight(60)).origin(OriginConfig.named("west").weight(40)).build()) {
            assertThatThrownBy(() -> ds.rebalance(Map.of("east", Integer.MAX_VALUE, "west", 1)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("the weights add up to 2147483648, more than 1000000");
            assertThat(ds.snapshot().origin("east").orElseThrow().weight()).as("nothing changed").isEqualTo(60);
        }
    }

    /** An origin's name is a path segment of the console's and the endpoint's URLs: '/', '..' and the like are refused. */
    @ParameterizedTest
    @ValueSource(strings = {"a/b", "..", "east/../west", "x y", ".hidden", "a%2Fb", "q?x", "t#x", "e=1", "w;x"})
    void anOriginNameThatIsNotOnePathSegmentIsRejected(String name) {
        InvalidPoolConfigException e = catchThrowableOfType(InvalidPoolConfigException.class, () ->
                SlotPoolDataSource.builder().url("jdbc:h2:mem:n")
                        .origin(OriginConfig.named(name)).origin(OriginConfig.named("west")).config());
        assertThat(e.violations()).singleElement().satisfies(v -> {
            assertThat(v.property()).isEqualTo("origins[0].name");
            assertThat(v.toString()).contains(name, "hold no '..'");
        });
    }
}
