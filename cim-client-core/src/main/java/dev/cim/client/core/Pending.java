package dev.cim.client.core;

import dev.cim.common.protocol.proto.Envelope;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** A request sent (or waiting to be sent) and not yet answered. Confined to the client's I/O thread. */
final class Pending {

    /** What was asked, which says what answers it. */
    enum Kind { SEND, SCHEDULE, EDIT, CANCEL, RELEASE, LIST_SCHEDULED, ONLINE_USERS, GROUP, GROUP_LIST, GROUP_MEMBERS,
        HISTORY, SEARCH, SETTINGS, SKIP, SENT_LIST }

    final long id;
    final Envelope envelope;
    final Kind kind;
    /** Completed with the answer, on the I/O thread. */
    final CompletableFuture<Object> result;
    /** True for requests the client makes by itself (releases, refreshes): their news goes to the listener. */
    final boolean internal;
    /**
     * Whether the request was handed to a logged-in connection at least once: then the server may
     * have it, and a close leaves it {@link CimException.Reason#UNCONFIRMED} rather than not sent.
     */
    boolean written;
    /** Refused for now ({@code TRY_AGAIN}): to be written again when the outbox's retry comes. */
    boolean again;
    /** The frames of a multi-frame answer so far. */
    private List<Object> parts;

    Pending(long id, Envelope envelope, Kind kind, boolean internal, CompletableFuture<Object> result) {
        this.id = id;
        this.result = result;
        this.envelope = envelope;
        this.kind = kind;
        this.internal = internal;
    }

    void addParts(List<?> more) {
        if (parts == null) {
            parts = new ArrayList<>(more.size());
        }
        parts.addAll(more);
    }

    void clearParts() {
        parts = null;
    }

    List<Object> parts() {
        return parts == null ? List.of() : parts;
    }
}
