/**
 * Oracle as a first-class citizen: the optional FAN adapter ({@link dev.slotpool.autoconfigure.oracle.FanEventMapper},
 * {@link dev.slotpool.autoconfigure.oracle.FanSubscriber}, on {@code com.oracle.database.ha:simplefan} and
 * {@code ons}) and the discovery query ({@link dev.slotpool.autoconfigure.oracle.OracleOriginQuery}).
 * docs/oracle.md describes both.
 */
package dev.slotpool.autoconfigure.oracle;
