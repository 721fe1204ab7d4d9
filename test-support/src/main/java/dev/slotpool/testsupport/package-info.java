/**
 * A counting stub JDBC driver for the pool's tests and benchmarks: no I/O, cheap and thread-safe hot paths,
 * and runtime failure injection.
 *
 * <p>Open connections with {@code jdbc:stub:<database>} through {@link java.sql.DriverManager},
 * {@link dev.slotpool.testsupport.StubDriver} or {@link dev.slotpool.testsupport.StubDataSource}; control and
 * observe the database through {@link dev.slotpool.testsupport.StubDatabase#named(String)}.
 */
package dev.slotpool.testsupport;
