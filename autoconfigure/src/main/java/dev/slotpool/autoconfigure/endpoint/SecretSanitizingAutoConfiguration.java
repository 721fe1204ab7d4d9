package dev.slotpool.autoconfigure.endpoint;

import dev.slotpool.JdbcUrls;
import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

import java.util.Locale;

/**
 * Keeps slotpool's secrets out of Boot's {@code env} and {@code configprops} endpoints even when an application
 * sets {@code show-values=always} (Boot then shows every value as it is): passwords and driver properties under
 * {@code slotpool.} are masked, and credentials inside its URL-valued settings (every {@code ...url}) and its ONS
 * configuration are redacted as in every other output of the pool, whichever spelling the property's source uses
 * (an environment variable's included). Boot's default ({@code show-values=never}) masks every value anyway.
 */
@AutoConfiguration
@ConditionalOnClass(SanitizingFunction.class)
public class SecretSanitizingAutoConfiguration {

    @Bean
    SanitizingFunction slotPoolSecretSanitizingFunction() {
        return SecretSanitizingAutoConfiguration::sanitize;
    }

    static SanitizableData sanitize(SanitizableData data) {
        String key = canonical(data.getKey());
        if (!key.startsWith("slotpool.") || data.getValue() == null) {
            return data;
        }
        String last = key.substring(key.lastIndexOf('.') + 1);
        if (JdbcUrls.isSecretKey(last) || key.contains(".connectionproperties.")) {
            return data.withSanitizedValue();
        }
        if ((last.endsWith("url") || last.equals("onsconfiguration")) && data.getValue() instanceof String text) {
            return data.withValue(JdbcUrls.redact(text));
        }
        return data;
    }

    /**
     * A property's name as Boot's relaxed binding reads it, whatever its source's spelling: the environment's
     * {@code slotpool.origins[0].pooler-admin-url}, the system environment's {@code SLOTPOOL_ORIGINS_0_POOLERADMINURL}
     * and configprops' {@code slotpool.origins[0].poolerAdminUrl} are all {@code slotpool.origins.0.pooleradminurl}.
     */
    static String canonical(String key) {
        return key.toLowerCase(Locale.ROOT).replaceAll("\\[([^\\]]*)\\]", ".$1").replace('_', '.').replace("-", "");
    }
}
