package dev.cim.loadgen;

import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The requests of one phase of part 4 (schedules, cancels): at most {@value #IN_FLIGHT}
 * unanswered, from all senders together, counted as they are answered. The phase calls
 * {@link #issue()} before each request and {@link #done} once with its answer, then
 * {@link #awaitAll()}.
 */
final class Registrations {

    /** Requests in flight at once, from all senders together. */
    static final int IN_FLIGHT = 4096;

    private final Semaphore inFlight = new Semaphore(IN_FLIGHT);
    private final int count;
    private final CountDownLatch answered;
    private final LongAdder refused = new LongAdder();
    private final AtomicLong lastAnswer = new AtomicLong();
    private volatile String firstFailure = "";

    /** @param count how many requests the phase makes, each answered once */
    Registrations(int count) {
        this.count = count;
        answered = new CountDownLatch(count);
    }

    /** Waits until fewer than {@value #IN_FLIGHT} are unanswered. */
    void issue() throws InterruptedException {
        inFlight.acquire();
    }

    /** Called once for each, from any thread; {@code failure} null for an answer that is not a refusal. */
    void done(Throwable failure) {
        if (failure != null) {
            refused.increment();
            if (firstFailure.isEmpty()) {
                Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
                firstFailure = " (first: " + cause.getMessage() + ")";
            }
        }
        lastAnswer.accumulateAndGet(System.nanoTime(), (a, b) -> a == 0 || b - a > 0 ? b : a);
        inFlight.release();
        answered.countDown();
    }

    /**
     * Waits for every answer, at most 5 minutes plus a millisecond per request (a server that
     * stopped answering would otherwise hold the run forever).
     *
     * @return "" when all were answered, else "; unanswered N" for the report
     */
    String awaitAll() throws InterruptedException {
        if (answered.await(TimeUnit.MINUTES.toMillis(5) + count, TimeUnit.MILLISECONDS)) {
            return "";
        }
        return String.format(Locale.ROOT, "; **unanswered %,d** when the generator stopped waiting",
                answered.getCount());
    }

    /** {@link System#nanoTime()} of the last answer, or now if none came. */
    long lastAnswerNanos() {
        long last = lastAnswer.get();
        return last != 0 ? last : System.nanoTime();
    }

    long refused() {
        return refused.sum();
    }

    /** " (first: why)" of the first refusal, or "". */
    String firstFailure() {
        return firstFailure;
    }
}
