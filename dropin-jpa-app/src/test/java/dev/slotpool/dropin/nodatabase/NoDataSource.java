package dev.slotpool.dropin.nodatabase;

import org.springframework.context.ApplicationContext;

import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

/** What the no-database apps' tests check: the context started with no DataSource and no repository. */
final class NoDataSource {

    private NoDataSource() {
    }

    static void assertIn(ApplicationContext context) {
        assertThat(context.getBeanNamesForType(DataSource.class)).isEmpty();
        assertThat(context.getBeanNamesForType(NoteRepository.class)).isEmpty();
    }
}
