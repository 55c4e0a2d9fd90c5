package dev.cim.server.support;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits for a condition with a deadline, polling briefly: no fixed sleeps in tests. */
public final class Await {

    private Await() {
    }

    /** Returns as soon as {@code condition} holds; fails with {@code what} after {@code timeout}. */
    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + timeout + " waiting until " + what);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting until " + what, e);
            }
        }
    }
}
