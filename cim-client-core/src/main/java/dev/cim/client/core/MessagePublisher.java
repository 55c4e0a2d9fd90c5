package dev.cim.client.core;

import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.SubmissionPublisher;

/**
 * Received messages as a {@link Flow.Publisher}, made on first use: until a program asks for it,
 * messages go to the listener only and no thread is started. Thread-safe.
 */
final class MessagePublisher implements AutoCloseable {

    private final String user;
    private SubmissionPublisher<ChatMessage> publisher;

    MessagePublisher(String user) {
        this.user = user;
    }

    /** The publisher, whose subscribers are called on a thread of its own. */
    synchronized Flow.Publisher<ChatMessage> publisher() {
        if (publisher == null) {
            publisher = new SubmissionPublisher<>(Executors.newSingleThreadExecutor(
                    new DefaultThreadFactory("cim-client-messages-" + user, true)), Flow.defaultBufferSize());
        }
        return publisher;
    }

    /** Hands {@code message} to the subscribers, if there is a publisher; blocks while one is a buffer behind. */
    void submit(ChatMessage message) {
        SubmissionPublisher<ChatMessage> messages;
        synchronized (this) {
            messages = publisher;
        }
        if (messages != null) {
            messages.submit(message);
        }
    }

    /** Completes the subscriptions. */
    @Override
    public synchronized void close() {
        if (publisher != null) {
            publisher.close();
        }
    }
}
