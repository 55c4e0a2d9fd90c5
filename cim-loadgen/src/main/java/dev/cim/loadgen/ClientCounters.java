package dev.cim.loadgen;

import java.util.concurrent.atomic.LongAdder;

/** What happened to the connections of one pool, counted on the event loop threads. */
final class ClientCounters {

    /** Pings sent. */
    final LongAdder pings = new LongAdder();
    /** Pongs received: a heartbeat answered. */
    final LongAdder pongs = new LongAdder();
    /** Error replies received. */
    final LongAdder errors = new LongAdder();
    /** Logged-in connections that closed without the generator asking. */
    final LongAdder dropped = new LongAdder();
    /** Exceptions on a connection (each closes it). */
    final LongAdder exceptions = new LongAdder();
    /** Frames of a kind a client never expects (e.g. a second LoginResult). */
    final LongAdder unexpected = new LongAdder();

    @Override
    public String toString() {
        return "pings " + pings.sum() + ", pongs " + pongs.sum() + ", errors " + errors.sum() + ", dropped "
                + dropped.sum() + ", exceptions " + exceptions.sum() + ", unexpected frames " + unexpected.sum();
    }
}
