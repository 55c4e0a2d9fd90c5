package dev.cim.loadgen;

import java.util.concurrent.atomic.LongAdder;

/** What happened to the connections of one pool, counted on the event loop threads. */
final class ClientCounters {

    /** Logged-in connections that were lost without the generator asking. */
    final LongAdder dropped = new LongAdder();
    /** Logins after the first (the client library reconnected). */
    final LongAdder reconnected = new LongAdder();

    @Override
    public String toString() {
        return "dropped " + dropped.sum() + ", reconnected " + reconnected.sum();
    }
}
