package dev.cim.client.core;

import dev.cim.common.protocol.SequenceMap;
import dev.cim.common.protocol.proto.Envelope;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * The requests not yet answered, in the order they were made. Each gets the next number of the
 * client's origin; a Send's number is also its message's sequence, so the message keeps its id when
 * it is sent again. After each login every request here is written again, in order: the server
 * routes a message id once, and answers a repeat with the first outcome.
 *
 * <p>Kept in a {@link SequenceMap}, answered in any order and listed in order only after a login (by
 * sorting): every message takes one in and one out, and a linked map with boxed keys cost a tenth of
 * a busy client's time in a profile of the closed-loop load (Netty's primitive map that replaced it,
 * 5 % in a later one: see SequenceMap).
 *
 * <p>Confined to the client's I/O thread.
 */
final class Requests {

    private final SequenceMap<Pending> outstanding = new SequenceMap<>();
    private final int limit;
    private long lastId;

    /**
     * @param limit the most requests outstanding at once; past it new ones are refused
     */
    Requests(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("max outstanding requests: " + limit + " (expected: >= 1)");
        }
        this.limit = limit;
    }

    /**
     * Numbers a new request and keeps it until answered.
     *
     * @param result completed with the answer
     * @throws CimException ({@link CimException.Reason#OUTBOX_FULL}) past the limit
     */
    Pending add(Pending.Kind kind, boolean internal, LongFunction<Envelope> build, CompletableFuture<Object> result) {
        if (outstanding.size() >= limit) {
            throw new CimException(CimException.Reason.OUTBOX_FULL, outstanding.size()
                    + " requests are waiting for the server already (the most a client keeps); try again later");
        }
        long id = ++lastId;
        Pending pending = new Pending(id, build.apply(id), kind, internal, result);
        outstanding.put(id, pending);
        return pending;
    }

    /** The request numbered {@code id}, or null when none is outstanding. */
    Pending get(long id) {
        return outstanding.get(id);
    }

    /** Forgets request {@code id}: it was answered. */
    Pending remove(long id) {
        return outstanding.remove(id);
    }

    int size() {
        return outstanding.size();
    }

    /** Every outstanding request, oldest first. */
    List<Pending> inOrder() {
        List<Pending> all = new ArrayList<>(outstanding.values());
        all.sort(Comparator.comparingLong(pending -> pending.id));
        return all;
    }

    /** Fails every outstanding request with the failure {@code why} gives for it and forgets them, oldest first. */
    void failAll(Function<Pending, CimException> why) {
        List<Pending> all = inOrder();
        outstanding.clear();
        for (Pending pending : all) {
            pending.result.completeExceptionally(why.apply(pending));
        }
    }
}
