package dev.cim.benchmark;

import java.time.Duration;

/** The three timers compared, in table-column order. */
public enum TimerKind {

    /** Our {@code DelayScheduler}. */
    OURS("ours"),
    /** Netty's {@code HashedWheelTimer}. */
    HWT("HashedWheelTimer"),
    /** {@code ScheduledThreadPoolExecutor(1)}, remove-on-cancel. */
    STPE("STPE");

    /** The settings of the cost and memory measurements: 100 ms ticks, 512 slots. */
    static final Duration DEFAULT_TICK = Duration.ofMillis(100);
    static final int DEFAULT_SLOTS = 512;

    private final String label;

    TimerKind(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }

    /** A fresh, started timer; the executor has no tick or slots and ignores them. */
    TimerUnderTest create(Duration tick, int slots) {
        return switch (this) {
            case OURS -> new OursTimer(tick, slots);
            case HWT -> new NettyTimer(tick, slots);
            case STPE -> new ExecutorTimer();
        };
    }

    TimerUnderTest create() {
        return create(DEFAULT_TICK, DEFAULT_SLOTS);
    }
}
