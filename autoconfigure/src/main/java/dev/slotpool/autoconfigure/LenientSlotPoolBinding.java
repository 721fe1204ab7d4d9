package dev.slotpool.autoconfigure;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.context.properties.ConfigurationPropertiesBindHandlerAdvisor;
import org.springframework.boot.context.properties.bind.AbstractBindHandler;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.env.Environment;

import java.util.stream.Collectors;

/**
 * {@code slotpool.fail-on-unknown-properties=false}: unknown keys under {@code slotpool.} are named in a WARN
 * instead of failing startup (for shared configuration, such as a config server's, that carries keys of another
 * slotpool version). {@link SlotPoolProperties} stays strict ({@code ignoreUnknownFields = false}); this advisor
 * wraps Boot's bind handler and catches only the unbound-keys failure of the {@code slotpool} prefix.
 */
final class LenientSlotPoolBinding implements ConfigurationPropertiesBindHandlerAdvisor {

    static final String PROPERTY = "slotpool.fail-on-unknown-properties";

    private static final Log log = LogFactory.getLog(LenientSlotPoolBinding.class);

    private static final ConfigurationPropertyName SLOTPOOL = ConfigurationPropertyName.of("slotpool");

    private final Environment environment;

    LenientSlotPoolBinding(Environment environment) {
        this.environment = environment;
    }

    @Override
    public BindHandler apply(BindHandler handler) {
        if (environment.getProperty(PROPERTY, Boolean.class, true)) {
            return handler;
        }
        return new AbstractBindHandler(handler) {
            @Override
            public void onFinish(ConfigurationPropertyName name, Bindable<?> target, BindContext context,
                                 Object result) throws Exception {
                try {
                    super.onFinish(name, target, context, result);
                } catch (UnboundConfigurationPropertiesException e) {
                    if (context.getDepth() != 0 || !SLOTPOOL.equals(name)) {
                        throw e;
                    }
                    log.warn("Unknown slotpool.* keys ignored (" + PROPERTY + "=false): "
                            + e.getUnboundProperties().stream().map(p -> p.getName().toString()).sorted()
                            .collect(Collectors.joining(", ")));
                }
            }
        };
    }
}
