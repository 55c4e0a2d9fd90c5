package dev.cim.server.store;

import dev.cim.common.protocol.proto.Scheduled;
import java.util.List;
import java.util.Optional;

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
        /** Claimed: send it, then {@link #done}. */
        record Claimed(Scheduled message) implements Claim {
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
    Optional<Scheduled> edit(String user, String id, String text, long dueAtMillis, long requestedMillis);

    /** Removes message {@code id}; empty when it is not held (or is being sent). */
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

    /** Message {@code id} of {@code user} was sent: forget it. */
    default void done(String user, String id) {
        doneAll(List.of(new Ref(user, id)));
    }

    /**
     * {@link #done} for each of {@code messages}, in one round trip to the store.
     *
     * @return how many could not be forgotten (their claims run out and they are sent again; the
     *         recipients' clients drop the repeats)
     */
    int doneAll(List<Ref> messages);

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
