package dev.cim.loadgen;

import java.util.concurrent.ScheduledExecutorService;

/**
 * One simulated user of a side that part 1's private-message traffic drives: it sends a text to
 * another user of its own side, and hands what it receives, and what comes of its sends, to the
 * current {@link Traffic}. {@link Pairs}, {@link ClosedLoopRun}, {@link PacedRun},
 * {@link ComparisonPart} and {@link LatencyCurve} see users only so, which lets one traffic shape
 * (the same pairs, {@link Token}s and {@link DeliveryLedger}) measure a cim server through
 * {@link LoadClient}s and another server through its own clients ({@code dev.cim.loadgen.peer}).
 *
 * <p>Public only for those clients: the generator is an application, not a library.
 */
public interface ChatUser {

    /**
     * Sends {@code text} to {@code to}, a user of the same side; the answer (a receipt, a peer
     * server's acknowledgement or a failure) goes to the traffic this user had when it sent it.
     *
     * @throws IllegalArgumentException if {@code to} is a user of another kind
     */
    void send(ChatUser to, String text);

    /** Makes this user hand what it receives to {@code traffic}, from now on. */
    void traffic(Traffic traffic);

    /**
     * The one thread that paces this user's sends in a {@link PacedRun}, shared by a share of its
     * side's users: for a cim user, its connection's event loop.
     */
    ScheduledExecutorService pacer();
}
