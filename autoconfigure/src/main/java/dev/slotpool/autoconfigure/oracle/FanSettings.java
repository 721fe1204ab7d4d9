package dev.slotpool.autoconfigure.oracle;

import dev.slotpool.ConfigViolation;
import dev.slotpool.OriginSnapshot;
import dev.slotpool.PoolSnapshot;
import dev.slotpool.autoconfigure.InvalidSlotPoolPropertiesException;
import dev.slotpool.autoconfigure.SlotPoolProperties;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * What the FAN subscriber needs, checked once at startup: the services to subscribe to (the origins' service
 * dimension), simplefan's configure properties and the drain timeout default. Its text never shows the wallet
 * password.
 *
 * @param services             distinct service names of the pool's origins, in origin order
 * @param onsConfiguration     {@code slotpool.oracle.fan.ons-configuration}, or null
 * @param walletFile           {@code slotpool.oracle.fan.wallet-file}, or null
 * @param walletPassword       {@code slotpool.oracle.fan.wallet-password}, or null
 * @param drainTimeoutDefault  {@code slotpool.oracle.fan.drain-timeout-default}, or null for the mapper's default
 */
record FanSettings(List<String> services, String onsConfiguration, String walletFile, String walletPassword,
                   Duration drainTimeoutDefault) {

    /**
     * simplefan's {@code FanManager.configure} key for a whole ONS configuration string, used as given (simplefan
     * 23.x also knows {@code onsNodes}, {@code onsWalletFile} and {@code onsWalletPassword}, which it turns into
     * the same string; it ignores them when this key is set and rejects any other key).
     */
    static final String ONS_REMOTE_CONFIG = "onsRemoteConfig";

    /** simplefan's {@code FanManager.subscribe} key: exactly one service per subscription. */
    static final String SERVICE_NAME = "serviceName";

    private static final String PREFIX = "slotpool.oracle.fan.";
    private static final String MASK = "******";
    private static final Pattern WALLET_PASSWORD = Pattern.compile("(?i)(walletpassword\\s*=)[^\\r\\n]*");

    FanSettings {
        services = List.copyOf(services);
    }

    /**
     * The settings for this pool.
     *
     * @throws InvalidSlotPoolPropertiesException naming each bad property (fail fast)
     */
    static FanSettings of(SlotPoolProperties.Fan fan, PoolSnapshot pool) {
        Map<String, String> services = new LinkedHashMap<>();
        for (OriginSnapshot o : pool.origins()) {
            if (o.service() != null && !o.service().isBlank()) {
                services.putIfAbsent(o.service().strip().toLowerCase(Locale.ROOT), o.service().strip());
            }
        }
        List<ConfigViolation> problems = new ArrayList<>();
        if (services.isEmpty()) {
            problems.add(new ConfigViolation(PREFIX + "enabled", "true", "needs at least one origin with a service "
                    + "(slotpool.origins[n].service): FAN subscriptions are per service"));
        }
        String ons = blankToNull(fan.getOnsConfiguration());
        if (ons != null && ons.indexOf('=') < 0) {
            problems.add(new ConfigViolation(PREFIX + "ons-configuration", ons, // no '=': no walletpassword entry
                    "must be an ONS configuration of key=value entries, such as nodes=rac1:6200,rac2:6200"));
        }
        String walletFile = blankToNull(fan.getWalletFile());
        String walletPassword = blankToNull(fan.getWalletPassword());
        if (ons == null && walletFile != null) {
            problems.add(new ConfigViolation(PREFIX + "wallet-file", walletFile,
                    "applies only with slotpool.oracle.fan.ons-configuration"));
        }
        if (ons == null && walletPassword != null) {
            problems.add(new ConfigViolation(PREFIX + "wallet-password", MASK,
                    "applies only with slotpool.oracle.fan.ons-configuration"));
        }
        Duration drain = fan.getDrainTimeoutDefault();
        if (drain != null && drain.isNegative()) {
            problems.add(new ConfigViolation(PREFIX + "drain-timeout-default", drain.toString(), "must be ≥ 0"));
        }
        if (!problems.isEmpty()) {
            throw new InvalidSlotPoolPropertiesException(problems);
        }
        return new FanSettings(new ArrayList<>(services.values()), ons, walletFile, walletPassword, drain);
    }

    /** Properties for {@code FanManager.configure}, or null to leave simplefan unconfigured (its defaults). */
    Properties configureProperties() {
        if (onsConfiguration == null) {
            return null;
        }
        StringBuilder config = new StringBuilder(onsConfiguration);
        if (walletFile != null) {
            config.append("\nwalletfile=").append(walletFile);
        }
        if (walletPassword != null) {
            config.append("\nwalletpassword=").append(walletPassword);
        }
        Properties p = new Properties();
        p.setProperty(ONS_REMOTE_CONFIG, config.toString());
        return p;
    }

    /** Where ONS events come from, for logs: the node entries only, never a wallet or its password. */
    String describeOns() {
        if (onsConfiguration == null) {
            return "simplefan's default ONS configuration (an Oracle home's ons.config)";
        }
        List<String> nodes = new ArrayList<>();
        int others = 0;
        for (String entry : onsConfiguration.split("[\\r\\n]+")) {
            if (entry.strip().toLowerCase(Locale.ROOT).startsWith("nodes")) {
                nodes.add(entry.strip());
            } else if (!entry.isBlank()) {
                others++;
            }
        }
        return String.join("; ", nodes) + (others > 0 ? " (+" + others + " more entries)" : "")
                + (walletFile != null ? " with a wallet" : "");
    }

    /** Text (e.g. an exception message from simplefan or ONS) with the wallet password masked. */
    String redact(String text) {
        if (text == null) {
            return null;
        }
        String out = WALLET_PASSWORD.matcher(text).replaceAll("$1" + MASK);
        return walletPassword == null ? out : out.replace(walletPassword, MASK);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    @Override
    public String toString() {
        return "FanSettings[services=" + services + ", ons=" + describeOns() + ", drainTimeoutDefault="
                + drainTimeoutDefault + "]";
    }
}
