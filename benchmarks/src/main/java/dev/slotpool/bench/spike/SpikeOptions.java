package dev.slotpool.bench.spike;

import dev.slotpool.bench.PoolKind;

import java.nio.file.Path;
import java.util.List;

/**
 * The command line: {@code [--quick] [--pools a,b|all] [--runs N] [--warmups N] [--out DIR]}. {@code --quick}
 * switches to {@link SpikeSetup#quick()} with slotpool and HikariCP, one run; explicit {@code --pools} and
 * {@code --runs} still win.
 *
 * @param warmups unrecorded spikes per pool before the runs (quick setup): without them the first pool measured
 *                also pays for loading and compiling the harness and the stub driver
 */
record SpikeOptions(SpikeSetup setup, List<PoolKind> pools, int runs, int warmups, Path out) {

    static final String USAGE =
            "usage: SpikeDemand [--quick] [--pools slotpool,hikari,...|all] [--runs N] [--warmups N] [--out DIR]";

    static SpikeOptions parse(String... args) {
        boolean quick = false;
        String pools = null;
        Integer runs = null;
        int warmups = 1;
        Path out = Path.of("benchmarks", "results", "spike");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--pools" -> pools = value(args, ++i);
                case "--runs" -> runs = atLeast(1, args[i], value(args, ++i));
                case "--warmups" -> warmups = atLeast(0, args[i], value(args, ++i));
                case "--out" -> out = Path.of(value(args, ++i));
                default -> throw new IllegalArgumentException("unknown option " + args[i] + "\n" + USAGE);
            }
        }
        List<PoolKind> quickPools = List.of(PoolKind.SLOTPOOL, PoolKind.HIKARI);
        return new SpikeOptions(quick ? SpikeSetup.quick() : SpikeSetup.documented(),
                pools != null ? PoolKind.parse(pools) : quick ? quickPools : PoolKind.parse("all"),
                runs != null ? runs : quick ? 1 : 5, warmups, out);
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value\n" + USAGE);
        }
        return args[i];
    }

    private static int atLeast(int min, String option, String text) {
        int n = Integer.parseInt(text);
        if (n < min) {
            throw new IllegalArgumentException(option + " must be at least " + min + ": " + text);
        }
        return n;
    }
}
