package dev.slotpool.jdbc;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** One borrow per test: a real H2 connection, recorded, behind a fake lease and a fresh proxy. */
abstract class BorrowFixture {

    static final String URL = "jdbc:h2:mem:proxytest;DB_CLOSE_DELAY=-1";

    Connection real;
    PhysicalRecorder recorder;
    FakeLease lease;
    ProxyConnection proxy;

    @BeforeEach
    void borrow() throws SQLException {
        real = DriverManager.getConnection(URL);
        try (Statement s = real.createStatement()) {
            s.execute("create table if not exists item(id int primary key, name varchar(50))");
            s.execute("delete from item");
            s.execute("create schema if not exists other");
        }
        recorder = new PhysicalRecorder();
        lease = new FakeLease(recorder.wrap(real));
        proxy = new ProxyConnection(lease, FakeLease.STAMP);
        recorder.calls.clear(); // reading the defaults is the pool's business, not the proxy's
    }

    @AfterEach
    void closeReal() throws SQLException {
        real.close();
    }

    /** Committed rows, as another session sees them. */
    static int committedRows() throws SQLException {
        try (Connection other = DriverManager.getConnection(URL);
             Statement s = other.createStatement();
             ResultSet rs = s.executeQuery("select count(*) from item")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
