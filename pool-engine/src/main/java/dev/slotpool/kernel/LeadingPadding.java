package dev.slotpool.kernel;


/**
 * 68 bytes of padding fields that the JVM lays out before a subclass's own fields (a superclass's fields come
 * first): the int takes the 4 bytes after a compressed class pointer, which a subclass's small field would
 * otherwise fill, so that line holds nothing the subclass writes. See {@code PooledConnection}.
 */
@SuppressWarnings("unused")
public abstract class LeadingPadding {

    private int before;
    private long before0, before1, before2, before3, before4, before5, before6, before7;
}
