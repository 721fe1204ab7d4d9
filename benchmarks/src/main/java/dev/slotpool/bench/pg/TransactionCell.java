package dev.slotpool.bench.pg;

import dev.slotpool.bench.PoolKind;

/** One cell of the grid: a pool of a size, driven by a number of threads. */
record TransactionCell(PoolKind pool, int connections, int threads) {
}
