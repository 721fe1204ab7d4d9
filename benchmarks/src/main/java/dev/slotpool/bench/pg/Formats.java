package dev.slotpool.bench.pg;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/** Number formats of the CSV files (plain, machine-readable) and of the Markdown tables (grouped, rounded). */
final class Formats {

    private static final String MISSING = "–";

    private Formats() {
    }

    /** CSV: six significant digits, no exponent, empty for NaN. */
    static String csv(double v) {
        return Double.isNaN(v) ? "" : BigDecimal.valueOf(v).round(new MathContext(6)).stripTrailingZeros()
                .toPlainString();
    }

    /** A count or rate, rounded and grouped: 1,234,567. */
    static String count(double v) {
        return Double.isNaN(v) ? MISSING : String.format(Locale.ROOT, "%,d", Math.round(v));
    }

    /** Three significant digits, no exponent: 0.0123, 1.67, 1670. */
    static String significant(double v) {
        return Double.isNaN(v) ? MISSING : BigDecimal.valueOf(v).round(new MathContext(3)).stripTrailingZeros()
                .toPlainString();
    }

    /** Two decimals: ratios. */
    static String twoDecimals(double v) {
        return Double.isNaN(v) ? MISSING : String.format(Locale.ROOT, "%.2f", v);
    }
}
