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
 * {@code slotpool.} are masked, and credentials inside its URLs and its ONS configuration are redacted as in every
 * other output of the pool. Boot's default ({@code show-values=never}) masks every value anyway.
 */
@AutoConfiguration
@ConditionalOnClass(SanitizingFunction.class)
public class SecretSanitizingAutoConfiguration {

    @Bean
    SanitizingFunction slotPoolSecretSanitizingFunction() {
        return SecretSanitizingAutoConfiguration::sanitize;
    }

    static SanitizableData sanitize(SanitizableData data) {
        // Boot's configprops names keys by field (connectionProperties), env by property (connection-properties).
        String key = data.getLowerCaseKey().replace("-", "");
        if (!key.startsWith("slotpool.") || data.getValue() == null) {
            return data;
        }
        if (key.endsWith("password") || key.contains(".connectionproperties.")) {
            return data.withSanitizedValue();
        }
        if ((key.endsWith(".url") || key.endsWith(".onsconfiguration")) && data.getValue() instanceof String text) {
            return data.withValue(JdbcUrls.redact(text));
        }
        return data;
    }
}
