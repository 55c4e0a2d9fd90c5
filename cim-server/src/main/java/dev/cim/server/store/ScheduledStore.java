package dev.cim.server.store;

import dev.cim.common.protocol.proto.Scheduled;
import dev.cim.common.protocol.proto.SentRecord;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The scheduled messages of every user, held durably until sent or cancelled. Each user's messages
 * can be listed, edited and cancelled by id; the messages of all users can be read by due time, in
 * buckets (so that no key holds everyone's, and every step touches one bucket's keys only); and a
 * message is sent once: it is <em>claimed</em> for sending in one atomic step, for a lease, and
 * removed when sent. A claim whose lease runs out (its node died while sending) can be claimed again.
 *
 * <p>Implementations block; callers run them off the I/O threads.
 */
public interface ScheduledStore {

    /** A user's scheduled message. */
    record Entry(String user, Scheduled message) {
    }

    /** A user's scheduled message, by id. */
    record Ref(String user, String id) {
    }

    /** A message to {@link #registerAll register} for a user (all but its number). */
    record Draft(String user, Scheduled draft) {
    }

    /** What {@link #register} did. */
    sealed interface Registration {
        /** Scheduled now, with its number. */
        record Created(Scheduled message) implements Registration {
        }

        /** Scheduled before (this is a resend of the same request): as it is. */
        record Existing(Scheduled message) implements Registration {
        }

        /** The user has {@code limit} scheduled messages already. */
        record TooMany(int limit) implements Registration {
        }

        /** In a batch: this one could not be done (it may have been; registering again is safe). */
        record Failed(RuntimeException cause) implements Registration {
        }
    }

    /** What {@link #claim} did. */
    sealed interface Claim {
        /**
         * Claimed: send it, then finish it.
         *
         * @param lapsed true when an earlier claim of it ran out before it was finished: whoever held
         *               that claim may have sent it and died before the series moved on
         */
        record Claimed(Scheduled message, boolean lapsed) implements Claim {
        }

        /** Not due yet by {@code now}. */
        record NotDue(Scheduled message) implements Claim {
        }

        /** Sent, being sent, cancelled, or never scheduled. */
        record Gone() implements Claim {
        }

        /** In a batch: this one could not be done (if it was, its lease runs out and it is sent later). */
        record Failed(RuntimeException cause) implements Claim {
        }
    }

    /** How many buckets the messages are spread over. */
    int buckets();

    /**
     * Holds {@code draft} (all but its number) for {@code user}, unless a message with its id is
     * held already; refuses past {@code maxPerUser} messages.
     */
    default Registration register(String user, Scheduled draft, int maxPerUser) {
        return single(registerAll(List.of(new Draft(user, draft)), maxPerUser).get(0));
    }

    /**
     * {@link #register} for each of {@code drafts}, in order, in one round trip to the store; each
     * answered on its own ({@link Registration.Failed} when that one failed).
     */
    List<Registration> registerAll(List<Draft> drafts, int maxPerUser);

    /** Every scheduled message of {@code user}, soonest first. */
    List<Scheduled> list(String user);

    /**
     * Changes the text (unless empty) and the due time (unless 0) of message {@code id}.
     *
     * @return the message as it is now; empty when it is not held (or is being sent)
     */
    default Optional<Scheduled> edit(String user, String id, String text, long dueAtMillis, long requestedMillis) {
        return update(user, id, current -> {
            Scheduled.Builder changed = current.toBuilder();
            if (!text.isEmpty()) {
                changed.setText(text);
            }
            if (dueAtMillis != 0) {
                changed.setDueAtMillis(dueAtMillis).setRequestedMillis(requestedMillis);
            }
            return changed.build();
        });
    }

    /**
     * Replaces message {@code id} with what {@code change} makes of it (its id and number kept),
     * atomically: {@code change} is applied again if the message changed meanwhile.
     *
     * @return the message as it is now; empty when it is not held (or is being sent)
     */
    Optional<Scheduled> update(String user, String id, UnaryOperator<Scheduled> change);

    /**
     * Removes message {@code id}; empty when it is not held, or is being sent (a recurring message
     * being sent is removed all the same: its series ends with the occurrence being sent).
     */
    Optional<Scheduled> cancel(String user, String id);

    /** Claims message {@code id} of {@code user} for sending, if it is due by {@code nowMillis}, until {@code leaseUntilMillis}. */
    default Claim claim(String user, String id, long nowMillis, long leaseUntilMillis) {
        return single(claimAll(List.of(new Ref(user, id)), nowMillis, leaseUntilMillis).get(0));
    }

    /**
     * {@link #claim} for each of {@code messages}, in order, in one round trip to the store; each
     * answered on its own ({@link Claim.Failed} when that one failed).
     */
    List<Claim> claimAll(List<Ref> messages, long nowMillis, long leaseUntilMillis);

    /**
     * Claims each of {@code messages} for sending now whatever its due time (a "when online" message,
     * its recipient having logged in), unless it is claimed already; one round trip. A message not
     * due yet is answered {@link Claim.Claimed} too.
     */
    List<Claim> claimAllNow(List<Ref> messages, long nowMillis, long leaseUntilMillis);

    /**
     * Notes that {@code message} waits for {@code recipient} to log in ("when online"). Noted before
     * the message is registered: a note whose message is not held (refused, sent, cancelled) is
     * {@link #unwait unwaited} when found.
     */
    void waitFor(String recipient, Ref message);

    /** The messages noted as waiting for {@code recipient}, at most {@code limit}. */
    List<Ref> waiting(String recipient, int limit);

    /** Forgets that {@code messages} wait for {@code recipient}. */
    void unwait(String recipient, List<Ref> messages);

    /**
     * What {@link #scanAll} found: how many claims it freed, the messages read, and how many
     * messages the store holds in all.
     */
    record Scan(int freed, List<Entry> entries, long stored) {
    }

    /**
     * A scan of every bucket, in one round trip where the store allows: in each, it makes the claims
     * whose lease ended by {@code nowMillis} claimable again (their messages are overdue then), and
     * reads the messages not claimed due after {@code afterMillis} ({@link Long#MIN_VALUE}: from the
     * first) up to {@code untilMillis} included, then, unless {@code overdueUntilMillis} is
     * {@link Long#MIN_VALUE}, those due up to {@code overdueUntilMillis} (a freed claim's message is
     * among them once a lease has passed since its due time, which it has when its lease ended),
     * each read up to {@code limit} per bucket; and counts them all. A message may be read twice.
     */
    Scan scanAll(long nowMillis, long afterMillis, long untilMillis, long overdueUntilMillis, int limit);

    /**
     * A claimed message done with: its time came, and it was sent, failed or was dropped.
     *
     * @param ref      the message
     * @param dueAt    its due time as claimed: nothing is done if it is no longer due then (another
     *                 claim, whose lease outlived this one's, finished it first)
     * @param next     of a recurring message, the series at its next occurrence, kept in its place;
     *                 null to forget the message
     * @param record   what to add to the user's record of sent messages, or null for nothing
     */
    record Finish(Ref ref, long dueAt, Scheduled next, SentRecord record) {
    }

    /**
     * How much of each user's record of sent messages is kept: the newest {@code perUser}, each for
     * {@code age} after the last was added.
     */
    record Keep(Duration age, int perUser) {
        public Keep {
            if (age.isNegative() || age.isZero() || perUser < 1) {
                throw new IllegalArgumentException("record kept for " + age + ", " + perUser
                        + " per user (expected: a positive age and at least 1)");
            }
        }
    }

    /** Message {@code id} of {@code user}, due at {@code dueAt}, was sent: forget it, recording nothing. */
    default void done(String user, String id, long dueAt) {
        finishAll(List.of(new Finish(new Ref(user, id), dueAt, null, null)), new Keep(Duration.ofDays(1), 1));
    }

    /** What became of a {@link Finish}. */
    enum Finished {
        /** Forgotten, or moved to its next occurrence, and recorded. */
        DONE,
        /** Nothing done: no longer held as it was claimed (cancelled while it was sent, or finished already). */
        GONE,
        /** The store did not answer: its claim runs out and it is sent again (the recipients' clients drop the repeat). */
        FAILED
    }

    /**
     * {@link Finish Finishes} each of {@code finishes}, in one round trip to the store, each in one
     * atomic step (the message forgotten or moved to its next occurrence, and its record added).
     *
     * @return what became of each, in order
     */
    List<Finished> finishAll(List<Finish> finishes, Keep keep);

    /**
     * The newest {@code limit} records of {@code user}'s scheduled messages done with, newest first,
     * none older than {@code notBeforeMillis}.
     */
    List<SentRecord> records(String user, int limit, long notBeforeMillis);

    /** Scheduled messages of all users (for metrics; may be approximate). */
    long count();

    private static <T> T single(T outcome) {
        if (outcome instanceof Registration.Failed failed) {
            throw failed.cause();
        }
        if (outcome instanceof Claim.Failed failed) {
            throw failed.cause();
        }
        return outcome;
    }
}
