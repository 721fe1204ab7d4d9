/**
 * A counting stub JDBC driver for the pool's tests and benchmarks: no I/O, cheap and thread-safe hot paths,
 * and runtime failure injection.
 *
 * <p>Open connections with {@code jdbc:stub:<database>} through {@link java.sql.DriverManager},
 * {@link dev.slotpool.testsupport.StubDriver} or {@link dev.slotpool.testsupport.StubDataSource}; control and
 * observe the database through {@link dev.slotpool.testsupport.StubDatabase#named(String)}.
 *
 * <p>For tests against real servers, {@link dev.slotpool.testsupport.TcpFaultProxy} sits between the client and
 * the server and injects network faults on demand: blackhole, refused connections, resets, a server that accepts
 * but never answers, latency. {@link dev.slotpool.testsupport.PgBouncerServer} runs the system's PgBouncer in
 * front of such a server.
 */
package dev.slotpool.testsupport;
