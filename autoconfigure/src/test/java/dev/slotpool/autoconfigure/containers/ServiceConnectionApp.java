package dev.slotpool.autoconfigure.containers;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/** The smallest Boot app: auto-configuration only, so the pool is configured exactly as a user's app gets it. */
@SpringBootConfiguration
@EnableAutoConfiguration
class ServiceConnectionApp {
}
