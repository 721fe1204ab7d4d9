package dev.slotpool.testsupport;

/**
 * What a {@link TcpFaultProxy} does with new and existing connections; switched with the proxy's methods of
 * the same names. {@link TcpFaultProxy#resetAll()} is a one-shot action, not a mode.
 */
public enum FaultMode {

    /** New connections are forwarded to the target; existing ones forward in both directions. */
    FORWARD,

    /**
     * A network cut without RST: nothing crosses in either direction, not even FIN or RST; new connections are
     * accepted and held, never connected to the target.
     */
    BLACKHOLE,

    /** Nothing listens on the port: new connections are refused; existing ones keep forwarding. */
    REFUSE,

    /**
     * A hung server that still completes TCP handshakes: new connections are accepted and held, never connected
     * to the target; existing ones keep forwarding.
     */
    ACCEPT_BUT_NEVER_ANSWER,

    /**
     * A server (or a middlebox in front of it) that answers everything with RST: connections open at the switch
     * are reset on both sides, and new ones are accepted and reset at once; nothing reaches the target.
     */
    RESET
}
