package dev.slotpool.dropin.nodatabase;

import org.springframework.data.jpa.repository.JpaRepository;

/**
 * Boot's JPA repositories auto-configuration runs only with a DataSource bean; with one and no
 * {@code entityManagerFactory} (HibernateJpaAutoConfiguration excluded), this repository fails the context.
 */
public interface NoteRepository extends JpaRepository<Note, Long> {
}
