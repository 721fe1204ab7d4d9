package dev.slotpool.console;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.ClassUtils;

/**
 * The console's switch (docs/console.md, Security): {@code slotpool.console.enabled} when set; unset, on only with
 * Spring Security on the class path, so an application without it never serves the pool's page by accident.
 */
final class ConsoleEnabledCondition extends SpringBootCondition {

    static final String PROPERTY = "slotpool.console.enabled";

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        Boolean enabled = context.getEnvironment().getProperty(PROPERTY, Boolean.class);
        if (enabled != null) {
            return new ConditionOutcome(enabled, PROPERTY + "=" + enabled);
        }
        boolean security = ClassUtils.isPresent(SlotPoolConsoleAutoConfiguration.SECURITY_CLASS,
                context.getClassLoader());
        return new ConditionOutcome(security, PROPERTY + " unset, Spring Security "
                + (security ? "present" : "absent (set " + PROPERTY + "=true to serve the console)"));
    }
}
