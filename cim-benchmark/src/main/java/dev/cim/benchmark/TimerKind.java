package dev.cim.benchmark;

import java.time.Duration;

/** The four timers compared, in table-column order. */
public enum TimerKind {

    /** Our {@code DelayScheduler}. */
    OURS("ours"),
    /** Netty's {@code HashedWheelTimer}. */
    HWT("HashedWheelTimer"),
    /** Kafka's {@code SystemTimer} behind a {@code SystemTimerReaper}. */
    KAFKA("Kafka SystemTimer"),
    /** {@code ScheduledThreadPoolExecutor(1)}, remove-on-cancel. */
    STPE("STPE");

    /** The tick of every measurement unless it says otherwise: 1 ms, as in issue 13's targets. */
    static final Duration DEFAULT_TICK = Duration.ofMillis(1);
    /** Slots per ring (ours) and per wheel (Netty); Kafka keeps its own default, 20. */
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
            case KAFKA -> new KafkaTimer(tick);
            case STPE -> new ExecutorTimer();
        };
    }

    TimerUnderTest create() {
        return create(DEFAULT_TICK, DEFAULT_SLOTS);
    }
}
