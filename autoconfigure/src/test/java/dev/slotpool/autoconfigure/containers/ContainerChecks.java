package dev.slotpool.autoconfigure.containers;

import dev.slotpool.SlotPoolDataSource;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

/** What every @ServiceConnection test checks: slotpool is the DataSource, on the container's URL, and it works. */
final class ContainerChecks {

    private ContainerChecks() {
    }

    static void poolServesTheContainer(DataSource dataSource, String containerUrl, String query) throws Exception {
        assertThat(dataSource).isInstanceOf(SlotPoolDataSource.class);
        SlotPoolDataSource pool = (SlotPoolDataSource) dataSource;
        assertThat(pool.config().origins()).singleElement()
                .satisfies(o -> assertThat(o.url()).isEqualTo(containerUrl));
        try (Connection c = pool.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(1);
        }
        assertThat(pool.snapshot().borrows()).isGreaterThanOrEqualTo(1);
    }
}
