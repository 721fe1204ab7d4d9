package dev.slotpool.bench.pg;

import dev.slotpool.Pooler;
import dev.slotpool.bench.BenchPool;
import dev.slotpool.bench.PoolKind;
import dev.slotpool.bench.PoolSettings;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The configurations compared behind the transaction pooler (docs/benchmarks.md, "Behind PgBouncer"): HikariCP
 * as its users run it by default and as they must configure it by hand, slotpool with the documented origin
 * setting (docs/poolers.md) and with its statement cache on top.
 */
enum PoolerCell {

    /** HikariCP with pgjdbc's defaults: server-side named statements from a statement's fifth use. */
    HIKARI_DEFAULTS("HikariCP, driver defaults", PoolKind.HIKARI) {
        @Override
        BenchPool start(PoolSettings s) {
            return PoolKind.HIKARI.start(s);
        }
    },

    /** HikariCP with {@code prepareThreshold=0} added to the URL by hand, as its users must behind PgBouncer. */
    HIKARI_THRESHOLD_0("HikariCP, prepareThreshold=0 by hand", PoolKind.HIKARI) {
        @Override
        BenchPool start(PoolSettings s) {
            return PoolKind.HIKARI.start(new PoolSettings(s.url() + "&prepareThreshold=0", s.minIdle(),
                    s.maxSize(), s.borrowTimeout(), s.user(), s.driver()));
        }
    },

    /** slotpool with {@code pooler(TRANSACTION)} and the driver's defaults: the pool sets what the driver needs. */
    SLOTPOOL_TRANSACTION("slotpool, pooler=transaction, driver defaults", PoolKind.SLOTPOOL) {
        @Override
        BenchPool start(PoolSettings s) {
            return PoolKind.slotpool(s, 0, Pooler.TRANSACTION);
        }
    },

    /** As {@link #SLOTPOOL_TRANSACTION}, with the statement cache of docs/statement-cache.md. */
    SLOTPOOL_CACHE("slotpool, pooler=transaction, statementCacheSize=" + PoolerCell.STATEMENT_CACHE_SIZE,
            PoolKind.SLOTPOOL) {
        @Override
        BenchPool start(PoolSettings s) {
            return PoolKind.slotpool(s, STATEMENT_CACHE_SIZE, Pooler.TRANSACTION);
        }
    };

    /** Room for the transaction's three statements and then some, as docs/poolers.md's fleet uses. */
    static final int STATEMENT_CACHE_SIZE = 16;

    private final String label;
    private final PoolKind pool;

    PoolerCell(String label, PoolKind pool) {
        this.label = label;
        this.pool = pool;
    }

    /** Starts one app instance's pool. */
    abstract BenchPool start(PoolSettings settings);

    /** How the tables and charts name it. */
    String label() {
        return label;
    }

    /** The pool underneath, for its colour in the charts. */
    PoolKind pool() {
        return pool;
    }

    /** The command-line name: hikari-defaults, hikari-threshold-0, slotpool-transaction, slotpool-cache. */
    String id() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Every id, for the usage text and messages. */
    static String ids() {
        return Arrays.stream(values()).map(PoolerCell::id).collect(Collectors.joining(","));
    }
}
