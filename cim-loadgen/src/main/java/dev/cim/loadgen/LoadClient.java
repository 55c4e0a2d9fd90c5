package dev.cim.loadgen;

import dev.cim.client.core.ChatMessage;
import dev.cim.client.core.CimClient;
import dev.cim.client.core.CimListener;
import dev.cim.client.core.ConnectionEvent;
import dev.cim.client.core.Recipient;
import io.netty.channel.EventLoop;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;

/**
 * One simulated user: a {@link CimClient} of the client library (the generator speaks the protocol
 * exactly as every other program does), whose received messages and receipts go to the current
 * {@link Traffic}. Counts its connection's drops in the pool's counters. As a {@link ChatUser} it is
 * the cim side of part 1's traffic.
 */
final class LoadClient implements CimListener, ChatUser {

    static final String PASSWORD = "load-pw-123";

    private final int index;
    private final String user;
    private final Recipient recipient;
    private final ClientCounters counters;
    private volatile Traffic traffic = Traffic.NONE;
    private volatile CimClient client;
    private volatile boolean loggedIn;
    private volatile long loggedInNanos;
    private volatile boolean closing;
    private final CompletableFuture<LoadClient> firstLogin = new CompletableFuture<>();
    private volatile long loginDeadline;

    LoadClient(int index, String user, ClientCounters counters) {
        this.index = index;
        this.user = user;
        this.recipient = Recipient.user(user);
        this.counters = counters;
    }

    void attach(CimClient client) {
        this.client = client;
    }

    int index() {
        return index;
    }

    String user() {
        return user;
    }

    /** This user as a recipient. */
    Recipient recipient() {
        return recipient;
    }

    CimClient client() {
        return client;
    }

    @Override
    public void traffic(Traffic traffic) {
        this.traffic = traffic;
    }

    boolean isOpen() {
        return client != null && client.isConnected();
    }

    /** The event loop this client's connection runs on. */
    EventLoop eventLoop() {
        return client.eventLoop();
    }

    /** {@link System#nanoTime()} when this client last logged in, or 0 before its first login. */
    long loggedInNanos() {
        return loggedInNanos;
    }

    /** Paces on its connection's event loop. */
    @Override
    public ScheduledExecutorService pacer() {
        return client.eventLoop();
    }

    /**
     * Connects and logs in; completes with this client, or fails when the server refuses the login,
     * or refuses it for now (a throttle: too many new accounts or failed logins from this address)
     * for longer than until {@code deadline} ({@link System#nanoTime()}): the client library would
     * wait and try again then, a generator would wait in silence.
     */
    CompletableFuture<LoadClient> connect(long deadline) {
        loginDeadline = deadline;
        client.connect().whenComplete((login, failure) -> {
            if (failure != null) {
                firstLogin.completeExceptionally(failure);
            } else {
                firstLogin.complete(this);
            }
        });
        return firstLogin;
    }

    /** What {@link #connect(long)} returned. */
    CompletableFuture<LoadClient> login() {
        return firstLogin;
    }

    /** Sends {@code text} to {@code to}, another cim user; the receipt or refusal goes to the traffic of the moment. */
    @Override
    public void send(ChatUser to, String text) {
        if (!(to instanceof LoadClient user)) {
            throw new IllegalArgumentException("to: " + to + " (expected: a cim user, of the same side as " + this.user + ")");
        }
        send(user.recipient, text);
    }

    /** Sends {@code text} to {@code to}; the receipt or refusal goes to the traffic of the moment. */
    void send(Recipient to, String text) {
        Traffic current = traffic;
        client.send(to, text).whenComplete((receipt, failure) -> {
            if (failure != null) {
                current.onFailure(this, failure);
            } else {
                current.onReceipt(this, receipt);
            }
        });
    }

    void close() {
        closing = true;
        CimClient c = client;
        if (c != null) {
            c.close();
        }
    }

    @Override
    public void onMessage(ChatMessage message) {
        traffic.onChat(this, message, System.nanoTime());
    }

    @Override
    public void onConnection(ConnectionEvent event) {
        if (event instanceof ConnectionEvent.Connected) {
            loggedInNanos = System.nanoTime();
            if (loggedIn) {
                counters.reconnected.increment();
            }
            loggedIn = true;
        } else if (event instanceof ConnectionEvent.Disconnected disconnected) {
            if (loggedIn && !closing) {
                counters.dropped.increment();
            } else if (!loggedIn && System.nanoTime() + disconnected.retryIn().toNanos() - loginDeadline > 0) {
                firstLogin.completeExceptionally(new IllegalStateException(disconnected.reason()
                        + " (the next try in " + disconnected.retryIn().toSeconds() + " s, past the generator's deadline)"));
            }
        }
    }
}
