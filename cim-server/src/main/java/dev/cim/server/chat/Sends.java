package dev.cim.server.chat;

import com.google.protobuf.ByteString;
import dev.cim.common.protocol.ChatRules;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.MessageIds;
import dev.cim.common.protocol.UserNames;
import dev.cim.common.protocol.proto.Chat;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.Receipt;
import dev.cim.common.protocol.proto.Send;
import dev.cim.server.chat.origin.Origin;
import dev.cim.server.chat.routing.Router;
import dev.cim.server.chat.session.Session;
import dev.cim.server.chat.session.Tracker;
import java.time.Clock;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A client's chat messages: each request number routed once ({@link Origin#claim}), a repeat
 * answered with its first outcome, the sender's rate and the message's content checked, the message
 * routed, and its outcome (a receipt, or why it was refused) sent to whichever session speaks for
 * the origin when it comes. A client with too many messages unresolved is no longer read until half
 * of them are. On the session's owner thread.
 */
final class Sends {

    /** How long a client waits before sending again a message the storage could not take (plus jitter). */
    static final long RETRY_MILLIS = 1000;

    private final Router router;
    private final SendRate sendRate;
    private final Limits limits;
    private final ChatMetrics metrics;
    private final Clock clock;

    Sends(Router router, SendRate sendRate, Limits limits, ChatMetrics metrics, Clock clock) {
        this.router = router;
        this.sendRate = sendRate;
        this.limits = limits;
        this.metrics = metrics;
        this.clock = clock;
    }

    void send(ClientSession client, long sequence, Send send) {
        metrics.received();
        Session session = client.session;
        Origin origin = client.origin;
        if (sequence <= 0) {
            session.connection().send(Envelopes.error(sequence, ErrorReply.Code.BAD_REQUEST,
                    "a message needs a request id above 0 (its sequence number)", false));
            return;
        }
        if (!origin.claim(sequence)) {
            repeat(session, origin, sequence);
            return;
        }
        // The text's bytes as they came, taken before getText() replaces them with a String: the
        // chat carries them as they are, so it is neither measured nor encoded again.
        ByteString text = send.getTextBytes();
        Envelope refusal = tooFast(session, sequence, "not sent");
        if (refusal == null) {
            refusal = ChatRules.recipientProblem(send.getRecipient())
                    .or(() -> ChatRules.textProblem(send.getText(), limits.maxTextLength()))
                    .map(problem -> Envelopes.error(sequence, ErrorReply.Code.BAD_REQUEST, problem, false))
                    .orElse(null);
        }
        if (refusal != null) {
            origin.answered(sequence, refusal);
            session.connection().send(refusal);
            return;
        }
        String recipient = UserNames.canonical(send.getRecipient());
        if (!origin.gate().admit(recipient, sequence)) {
            Tracker.Failure behind = Tracker.Failure.behindRetry(recipient);
            if (!retryLater(session, origin, sequence, recipient, behind)) {
                Envelope refused = Envelopes.error(sequence, ErrorReply.Code.INTERNAL, tooManyToRetry(behind), false);
                origin.answered(sequence, refused);
                session.connection().send(refused);
            }
            return;
        }
        Chat chat = Chat.newBuilder()
                .setIdBytes(MessageIds.utf8(origin.id(), sequence))
                .setSender(session.user())
                .setRecipient(recipient)
                .setTextBytes(text)
                .setSentAtMillis(clock.millis())
                .build();
        // The id made once, as bytes: the chat writes them in its deliveries, the receipt reuses them.
        Tracker tracker = new Tracker(sequence, chat.getIdBytes(), chat.getRecipient(), outcomeOf(client, metrics.timer()));
        origin.pending(tracker);
        router.route(chat, tracker, session, origin.gate());
        if (origin.pendingCount() > limits.pendingPerOrigin()) {
            session.pauseReading(() -> origin.pendingCount() <= limits.pendingPerOrigin() / 2);
        }
    }

    /**
     * A refusal when {@code session}'s user is sending faster than allowed, else null.
     *
     * @param notDone what the refusal says was not done: "not sent", "not scheduled"
     */
    Envelope tooFast(Session session, long requestId, String notDone) {
        long waitNanos = sendRate.take(session.user());
        if (waitNanos == 0) {
            return null;
        }
        long waitMillis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(waitNanos));
        metrics.rateLimited();
        return Envelopes.rateLimited(requestId, notDone + ": more than " + limits.messagesPerSecond()
                + " messages per second from " + session.user() + " (expected: a pause of " + waitMillis
                + " ms before the next)", waitMillis);
    }

    /** A request number seen before: answered with its first outcome, or left to its receipt still to come. */
    private void repeat(Session session, Origin origin, long sequence) {
        if (origin.isPending(sequence)) {
            return; // the receipt goes to the origin's current session, this one, when it comes
        }
        Envelope first = origin.answerOf(sequence);
        Envelope answer;
        if (first == null) {
            answer = Envelopes.receipt(sequence, Receipt.Outcome.HANDLED_EARLIER, MessageIds.of(origin.id(), sequence),
                    0, "", true);
        } else if (first.hasReceipt()) {
            answer = first.toBuilder().setReceipt(first.getReceipt().toBuilder().setResend(true)).build();
        } else {
            answer = first;
        }
        session.connection().send(answer);
    }

    /**
     * Refuses request {@code sequence} for now: the client sends it again after
     * {@value #RETRY_MILLIS} ms or so, and it is routed then (it is not kept as answered).
     *
     * @param session where to tell it, or null (the client, gone, sends it again with the rest)
     * @return false when the origin holds too many such: the caller answers for good
     */
    private static boolean retryLater(Session session, Origin origin, long sequence, String recipient,
            Tracker.Failure why) {
        if (!origin.retry(sequence, recipient)) {
            return false;
        }
        if (session != null) {
            long wait = RETRY_MILLIS + ThreadLocalRandom.current().nextLong(RETRY_MILLIS / 2);
            session.answer(Envelopes.tryAgain(sequence, why.reason(), wait));
        }
        return true;
    }

    private static String tooManyToRetry(Tracker.Failure why) {
        return why.reason() + " (and this client has too many messages waiting to be sent again: send it later)";
    }

    /** Where the outcome of a message of {@code client} goes; one for all the client's messages not timed. */
    private Tracker.Outcome outcomeOf(ClientSession client, ChatMetrics.Timing timing) {
        if (timing != metrics.untimed()) {
            return receiptTo(client.origin, timing);
        }
        Tracker.Outcome receipts = client.receipts;
        if (receipts == null) {
            receipts = receiptTo(client.origin, timing);
            client.receipts = receipts;
        }
        return receipts;
    }

    /** Where a tracked message's outcome goes: a receipt (or refusal) to its origin's current session. */
    private static Tracker.Outcome receiptTo(Origin origin, ChatMetrics.Timing timing) {
        return (tracker, sessions, stored, failure) -> {
            timing.done(stored, failure != null);
            Session current = origin.current();
            if (failure == null && !stored) {
                // The common outcome: batched with others into one Receipts frame.
                origin.delivered(tracker.sequence(), sessions);
                if (current != null) {
                    current.delivered(tracker.sequence(), sessions);
                }
                return;
            }
            if (failure != null && failure.retryable()) {
                if (retryLater(current, origin, tracker.sequence(), tracker.recipient(), failure)) {
                    return;
                }
                // Final, not TRY_AGAIN: a repeat is answered with what is kept, and must not be retried.
                failure = new Tracker.Failure(ErrorReply.Code.INTERNAL, tooManyToRetry(failure));
            }
            Envelope answer = failure != null
                    ? Envelopes.error(tracker.sequence(), failure.code(), failure.reason(), false)
                    : Envelopes.receipt(tracker.sequence(), ChatRules.isGroup(tracker.recipient())
                            ? Receipt.Outcome.POSTED : Receipt.Outcome.STORED, tracker.messageId(), sessions,
                            tracker.recipient(), false);
            origin.answered(tracker.sequence(), answer);
            if (current != null) {
                current.answer(answer);
            }
        };
    }
}
