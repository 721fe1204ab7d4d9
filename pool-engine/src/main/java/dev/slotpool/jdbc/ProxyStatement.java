package dev.slotpool.jdbc;

import java.sql.Statement;

/** The proxy of a plain {@link Statement}: everything is in {@link AbstractProxyStatement} and its generated
 * {@link StatementDelegation}. */
final class ProxyStatement extends AbstractProxyStatement<Statement> {

    ProxyStatement(ProxyConnection connection, Statement delegate) {
        super(connection, delegate, null);
    }
}
