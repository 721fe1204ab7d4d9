package dev.slotpool.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The slotpool sample: a Boot web app on the slotpool starter whose pool spans three in-memory H2 databases
 * (origins east, west and north). A small shop ({@code shop}) runs short transactions on it, a load generator
 * ({@code load}) keeps it busy, and the pool endpoint ({@code /actuator/pool}) reads and steers it; Spring
 * Security ({@code security}) guards all of it.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class SampleApplication {

    public static void main(String[] args) {
        SpringApplication.run(SampleApplication.class, args);
    }
}
