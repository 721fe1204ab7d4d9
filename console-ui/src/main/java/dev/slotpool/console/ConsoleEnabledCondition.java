package dev.slotpool.console;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * The console's switch (docs/console.md, Security model): on only with {@code slotpool.console.enabled=true}, with
 * or without Spring Security, as Boot's H2 console. Spring Security on the class path says nothing of whether the
 * application's chains cover the console's path: a chain over {@code /api/**} only, or one that permits all, would
 * otherwise serve the pool's page to anonymous users.
 */
final class ConsoleEnabledCondition extends SpringBootCondition {

    static final String PROPERTY = "slotpool.console.enabled";

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        boolean enabled = Boolean.TRUE.equals(context.getEnvironment().getProperty(PROPERTY, Boolean.class));
        return new ConditionOutcome(enabled, enabled ? PROPERTY + "=true"
                : PROPERTY + " is not true (set it to serve the console)");
    }
}
