package dev.slotpool.bench.scaling;

import dev.slotpool.bench.PoolKind;

/** One point of the matrix: thread kind, mode, pool and thread count; measured once per run. */
record Cell(ThreadKind kind, Mode mode, PoolKind pool, int threads) {
}
