package dev.cim.loadgen.peer.xmpp;

import dev.cim.loadgen.ChatUser;
import dev.cim.loadgen.Opened;
import dev.cim.loadgen.peer.PacerLoops;
import dev.cim.loadgen.peer.PeerPool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The users {@code u0} .. {@code u<n-1>} of one XMPP server ({@link XmppUser}s), the users of an XMPP
 * side in part 1's comparison. Their accounts are the server's ({@code bin/peer-ejabberd} registers
 * them): the same in every run, unlike cim's and MQTT's, which is why the generator's measurements
 * tag their texts as this run's. They log in at most {@value #LOGINS_IN_FLIGHT} at a time (each login
 * is a blocking Smack connect and a SCRAM exchange: all at once would only queue on the server's
 * cores), and are closed together. For a paced run they share {@code pacers} loops
 * ({@link PacerLoops}).
 */
public final class XmppPool implements PeerPool {

    /** Users logging in, at most. */
    static final int LOGINS_IN_FLIGHT = 16;

    private final XmppEndpoint endpoint;
    private final PacerLoops pacers;
    private final LongAdder dropped = new LongAdder();
    private final List<XmppUser> users = new ArrayList<>();

    /**
     * @param pacers loops that pace the users' sends in a paced run (as many as the cim clients'
     *               event loops, for the same pacing)
     */
    public XmppPool(XmppEndpoint endpoint, int pacers) {
        this.endpoint = endpoint;
        this.pacers = new PacerLoops("loadgen-xmpp-pacer", pacers);
    }

    /**
     * Logs in users {@code u0} .. {@code u<count-1>}, waiting at most {@code timeout} in all; those not
     * logged in by then are counted as failed.
     *
     * @param prefix not used: the users are the server's accounts
     */
    @Override
    public Opened<? extends ChatUser> open(String prefix, int count, Duration timeout) throws InterruptedException {
        if (count < 1) {
            throw new IllegalArgumentException("users: " + count + " (expected: >= 1)");
        }
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        ExecutorService logins = daemons(LOGINS_IN_FLIGHT, "loadgen-xmpp-login-");
        List<Future<XmppUser>> pending = new ArrayList<>(count);
        List<XmppUser> opened = new ArrayList<>(count);
        String firstFailure = "";
        try {
            for (int i = 0; i < count; i++) {
                int index = i;
                ScheduledExecutorService pacer = pacers.next();
                pending.add(logins.submit(() -> {
                    XmppUser user = XmppUser.connect(endpoint, index, pacer, dropped);
                    synchronized (users) { // closed with the pool even if it came too late to be used
                        users.add(user);
                    }
                    return user;
                }));
            }
            for (Future<XmppUser> login : pending) {
                try {
                    opened.add(login.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
                } catch (ExecutionException e) {
                    firstFailure = firstFailure.isEmpty() ? String.valueOf(e.getCause()) : firstFailure;
                } catch (TimeoutException e) {
                    login.cancel(true);
                    firstFailure = firstFailure.isEmpty() ? "not logged in within " + timeout : firstFailure;
                }
            }
        } finally {
            pending.forEach(login -> login.cancel(true));
            logins.shutdownNow();
        }
        return new Opened<>(List.copyOf(opened), count - opened.size(), firstFailure,
                Duration.ofNanos(System.nanoTime() - start));
    }

    @Override
    public long dropped() {
        return dropped.sum();
    }

    @Override
    public String describe() {
        return "XMPP to " + endpoint.host() + ":" + endpoint.port() + " (Smack 4.4.8 XMPPTCPConnection, TCP_NODELAY, "
                + "plaintext, SCRAM-SHA-1), users u0.. of " + endpoint.domain() + ", chat messages to bare JIDs, "
                + "stream management (XEP-0198) with an ack requested after every message, no resumption, "
                + pacers.count() + " pacer loops";
    }

    /**
     * Closes every user, {@value #LOGINS_IN_FLIGHT} at a time (each waits for its stream's end), then
     * ends the pacer loops. Interrupted, it stops waiting for them (the interrupt stays set).
     */
    @Override
    public void close() {
        ExecutorService closing = daemons(LOGINS_IN_FLIGHT, "loadgen-xmpp-close-");
        try {
            List<Future<?>> closed = new ArrayList<>();
            synchronized (users) {
                users.forEach(user -> closed.add(closing.submit(user::close)));
                users.clear();
            }
            for (Future<?> close : closed) {
                try {
                    close.get();
                } catch (ExecutionException e) {
                    // closed as far as Smack could: nothing of the user is read after
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closing.shutdownNow();
            pacers.close();
        }
    }

    private static ExecutorService daemons(int threads, String prefix) {
        AtomicInteger number = new AtomicInteger();
        return Executors.newFixedThreadPool(threads, task -> {
            Thread thread = new Thread(task, prefix + number.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }
}
