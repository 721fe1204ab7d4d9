package dev.slotpool.lending;

import dev.slotpool.CloseReason;
import dev.slotpool.LabelingCallback;
import dev.slotpool.jdbc.ProxyConnection;
import dev.slotpool.kernel.UserCode;
import dev.slotpool.slots.PooledConnection;
import dev.slotpool.table.Slot;
import dev.slotpool.table.SlotTable;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.ToIntFunction;

/** Labeled borrows with UCP semantics (cost 0 taken at once, else the cheapest, then configured). */
final class Labels {

    private Labels() {
    }

    /** Lends a slot the labeled look won, after the checks of any borrow; null if its connection was unusable. */
    interface Lender {
        Connection lendIfUsable(Slot<PooledConnection> s, long deadline) throws SQLException;
    }

    /**
     * The available connection of cost 0, else the cheapest acceptable one, taken under the table's turn rule
     * (no barging ahead of waiters) and checked within the borrow's {@code deadline} (ticker time). Null when none
     * is acceptable, none may be taken ahead of waiters, or every candidate was taken by others first or proved
     * unusable (the caller then borrows any, on the same deadline).
     */
    static Connection borrowCheapest(SlotTable<PooledConnection> table, Lender lender, UserCode userCode,
                                     LabelingCallback labeling, Map<String, String> requested, long deadline)
            throws SQLException {
        ToIntFunction<PooledConnection> costOf = e -> e.origin.isUp() && e.origin.takesWrites()
                ? userCode.labelCost(labeling, requested, e.labels()) : LabelingCallback.UNUSABLE;
        for (Slot<PooledConnection> s; (s = table.tryBorrowCheapest(costOf, LabelingCallback.UNUSABLE)) != null; ) {
            Connection c = lender.lendIfUsable(s, deadline);
            if (c != null) {
                return c;
            }
        }
        return null;
    }

    /**
     * Makes a borrowed connection match the request, or retires it and fails the borrow: whatever the callback
     * throws, the connection the borrower will not get goes back (closed), never lent to nobody.
     */
    static Connection configure(String poolName, UserCode userCode, LabelingCallback labeling,
                                Map<String, String> requested, Connection c) throws SQLException {
        ProxyConnection proxy = (ProxyConnection) c;
        if (userCode.labelCost(labeling, requested, proxy.labels()) == 0) {
            return c;
        }
        boolean ok;
        try {
            ok = userCode.configureLabels(labeling, requested, c);
        } catch (SQLException e) {
            retireAndClose(proxy);
            throw e;
        }
        if (!ok) {
            retireAndClose(proxy);
            throw new SQLException("pool '" + poolName + "': the labeling callback could not configure a "
                    + "connection for labels " + requested.keySet());
        }
        if (userCode.labelCost(labeling, requested, proxy.labels()) != 0) {
            Map<String, String> merged = new HashMap<>(proxy.labels());
            merged.putAll(requested);
            proxy.lease().labels(merged);
        }
        return c;
    }

    private static void retireAndClose(ProxyConnection proxy) throws SQLException {
        ((PooledConnection) proxy.lease()).retire(CloseReason.LABELING_FAILED);
        proxy.close();
    }
}
