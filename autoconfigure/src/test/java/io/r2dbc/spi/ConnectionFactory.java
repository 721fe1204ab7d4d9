package io.r2dbc.spi;

/**
 * A stand-in for R2DBC's {@code ConnectionFactory} (R2DBC is not on this module's class path): Boot's DataSource
 * auto-configuration, and slotpool's, back off for a bean of this type by its name (SlotPoolOrderingTest).
 */
public interface ConnectionFactory {
}
