/**
 * Oracle as a first-class citizen: the optional FAN adapter ({@link dev.slotpool.autoconfigure.oracle.FanEventMapper},
 * {@link dev.slotpool.autoconfigure.oracle.FanSubscriber}, on {@code com.oracle.database.ha:simplefan} and
 * {@code ons}). docs/oracle.md describes it, and the discovery query for Oracle origins.
 */
package dev.slotpool.autoconfigure.oracle;
