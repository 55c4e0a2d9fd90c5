package dev.cim.loadgen;

import dev.cim.client.core.HistoryPage;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;

/**
 * Fills one private conversation: {@code count} messages from one user to another, as fast as the
 * server's receipts allow. {@code window} messages are in flight and each receipt (or refusal) sends
 * the next: a closed loop, which cannot overrun the server. Every send is made on the sender's event
 * loop, so the messages leave in order and the last one sent is the conversation's newest; the server
 * writes the history behind the delivery, and {@link #awaitInHistory} waits until it shows there.
 */
final class ConversationFill {

    /**
     * @param count    messages sent
     * @param elapsed  first send → last answer
     * @param receipts the server's answers
     * @param lastText the text of the last one sent
     */
    record Result(int count, Duration elapsed, ReceiptCounts receipts, String lastText) {

        double perSecond() {
            return count / Math.max(1e-9, elapsed.toNanos() / 1e9);
        }
    }

    /** Between two reads of a conversation's newest message. */
    private static final long POLL_MILLIS = 20;

    private final LoadClient from;
    private final LoadClient to;
    private final int count;
    private final IntFunction<String> text;
    private final ReceiptCounts receipts;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger answered = new AtomicInteger();
    private final CompletableFuture<Result> done = new CompletableFuture<>();
    private volatile long startNanos;
    private volatile String lastText;

    private ConversationFill(LoadClient from, LoadClient to, int count, IntFunction<String> text,
            ReceiptCounts receipts) {
        this.from = from;
        this.to = to;
        this.count = count;
        this.text = text;
        this.receipts = receipts;
    }

    /**
     * Starts sending; completes once every message is answered.
     *
     * @param text     the text of message {@code i}, 0 to {@code count - 1}, asked once for each
     * @param receipts where the server's answers are counted (fills running together may share one)
     */
    static CompletableFuture<Result> start(LoadClient from, LoadClient to, int count, int window,
            IntFunction<String> text, ReceiptCounts receipts) {
        if (count < 1 || window < 1 || from == to) {
            throw new IllegalArgumentException("count: " + count + ", window: " + window + ", from " + from.user()
                    + " to " + to.user() + " (expected: count and window >= 1, two users)");
        }
        ConversationFill fill = new ConversationFill(from, to, count, text, receipts);
        from.eventLoop().execute(() -> {
            fill.startNanos = System.nanoTime();
            for (int i = 0; i < window; i++) {
                fill.sendNext();
            }
        });
        return fill.done;
    }

    private void sendNext() {
        int i = next.getAndIncrement();
        if (i >= count) {
            return;
        }
        String message = text.apply(i);
        if (i == count - 1) {
            lastText = message;
        }
        from.client().send(to.recipient(), message).whenComplete((receipt, failure) -> {
            if (failure != null) {
                receipts.failure(failure);
            } else {
                receipts.receipt(receipt);
            }
            if (answered.incrementAndGet() == count) {
                done.complete(new Result(count, Duration.ofNanos(System.nanoTime() - startNanos), receipts,
                        lastText));
            } else if (from.eventLoop().inEventLoop()) {
                sendNext();
            } else {
                from.eventLoop().execute(this::sendNext);
            }
        });
    }

    /**
     * Waits until {@code reader}'s newest message of {@code conversation} ({@code @user}) is
     * {@code text}, reading it every {@value #POLL_MILLIS} ms.
     *
     * @return how long that took, or null if it did not within {@code timeout}
     */
    static Duration awaitInHistory(LoadClient reader, String conversation, String text, Duration timeout)
            throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                HistoryPage page = reader.client().history().latest(conversation, 1)
                        .get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (!page.entries().isEmpty() && page.entries().get(0).message().text().equals(text)) {
                    return Duration.ofNanos(System.nanoTime() - start);
                }
            } catch (ExecutionException | TimeoutException e) {
                // not readable yet: tried again until the deadline
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(POLL_MILLIS)); // polling a condition, with a deadline
        }
        return null;
    }
}
