package dev.slotpool.bench.scaling;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/** Number formats of the CSV files (plain, machine-readable) and of the Markdown tables (grouped, rounded). */
final class Numbers {

    private static final String MISSING = "–";

    private Numbers() {
    }

    /** CSV: six significant digits, no exponent, empty for NaN. */
    static String csv(double v) {
        if (Double.isNaN(v)) {
            return "";
        }
        return BigDecimal.valueOf(v).round(new MathContext(6)).stripTrailingZeros().toPlainString();
    }

    /** A count or rate, rounded and grouped: 1,234,567. */
    static String count(double v) {
        return Double.isNaN(v) ? MISSING : String.format(Locale.ROOT, "%,d", Math.round(v));
    }

    /** A per-thread count: whole when it is (a median of an odd count), else one decimal. */
    static String perThread(double v) {
        if (Double.isNaN(v)) {
            return MISSING;
        }
        return v == Math.rint(v) ? count(v) : String.format(Locale.ROOT, "%,.1f", v);
    }

    /** Three significant digits, no exponent: 0.0123, 1.67, 1670. */
    static String significant(double v) {
        if (Double.isNaN(v)) {
            return MISSING;
        }
        return BigDecimal.valueOf(v).round(new MathContext(3)).stripTrailingZeros().toPlainString();
    }

    /** Two decimals: ratios and CPU seconds. */
    static String twoDecimals(double v) {
        return Double.isNaN(v) ? MISSING : String.format(Locale.ROOT, "%.2f", v);
    }
}
