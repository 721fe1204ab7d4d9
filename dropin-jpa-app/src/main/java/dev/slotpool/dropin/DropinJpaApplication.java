package dev.slotpool.dropin;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A small Spring Data JPA app (accounts and transfers on H2) whose only pool change is the slotpool starter as a
 * plain dependency; HikariCP stays on the class path through {@code spring-boot-starter-data-jpa}.
 */
@SpringBootApplication
public class DropinJpaApplication {

    public static void main(String[] args) {
        SpringApplication.run(DropinJpaApplication.class, args);
    }
}
