package dev.slotpool.dropin.nodatabase;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;

/** An entity of the no-database apps: its repository exists only if Boot finds a DataSource. */
@Entity
public class Note {

    @Id
    @GeneratedValue
    private Long id;

    public Long getId() { return id; }
}
