package dev.cim.server.chat.session;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.Receipts;

/**
 * Answers to one client's requests, finished on many threads and written by its session's drain:
 * the outcomes of many messages cost one hand-off and one flush, not one each, and the common one
 * ("delivered to n sessions") goes out as an entry of one {@code Receipts} frame with the others
 * delivered meanwhile, not a frame each.
 */
final class Answers {

    /** Receipts per Receipts frame: some 6 bytes each, far under a frame. */
    static final int RECEIPTS_PER_FRAME = 1024;

    private sealed interface Answer {
        /** Any answer, written as it is. */
        record Frame(Envelope envelope) implements Answer {
        }

        /** Message {@code sequence} reached {@code sessions} sessions. */
        record Delivered(long sequence, int sessions) implements Answer {
        }
    }

    private final LazyMpscQueue<Answer> queue = new LazyMpscQueue<>();

    /** Any thread. */
    void add(Envelope answer) {
        queue.add(new Answer.Frame(answer));
    }

    /** Any thread. */
    void delivered(long sequence, int sessions) {
        queue.add(new Answer.Delivered(sequence, sessions));
    }

    /**
     * Owner thread: writes everything queued, in order, the receipts gathered into frames.
     *
     * @return true when something was written (the caller flushes)
     */
    boolean writeTo(Connection connection) {
        boolean wrote = false;
        Receipts.Builder receipts = null;
        for (Answer answer; (answer = queue.poll()) != null; ) {
            wrote = true;
            if (answer instanceof Answer.Delivered delivered) {
                if (receipts == null) {
                    receipts = Receipts.newBuilder();
                }
                receipts.addRequestIds(delivered.sequence()).addSessions(delivered.sessions());
                if (receipts.getRequestIdsCount() == RECEIPTS_PER_FRAME) {
                    connection.write(Envelopes.receipts(receipts.build()));
                    receipts = null;
                }
            } else {
                connection.write(((Answer.Frame) answer).envelope());
            }
        }
        if (receipts != null) {
            connection.write(Envelopes.receipts(receipts.build()));
        }
        return wrote;
    }

    /** Owner thread: drops what is queued (the connection is closing: the client asks again on its next one). */
    void clear() {
        queue.clear();
    }
}
