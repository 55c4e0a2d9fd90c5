package dev.cim.common.autoconfigure;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the delay wheel bean, under {@code cim.wheel}. Every one has a default; invalid values
 * stop the application at start-up with a message that names the setting and what was expected.
 */
@ConfigurationProperties("cim.wheel")
public class CimWheelProperties {

    /** Whether to give the application a DelayScheduler bean at all. */
    private boolean enabled = true;

    /** Time between ticks, and so the precision: jobs run at most one tick late. At least 1ms. */
    private Duration tick = Duration.ofMillis(10);

    /** Buckets per ring of the wheel; a power of two, at least 2. */
    private int slots = 512;

    /** Threads that run due jobs; at least 1. */
    private int workerThreads = 2;

    /** The most jobs pending at once, past which scheduling is refused; 0 for no cap. */
    private long maxPending = 0;

    /** The longest delay accepted; from 1ms to 100 years, and at least the tick. */
    private Duration maxDelay = Duration.ofDays(30);

    /** How long, when the application stops, pending jobs may still run at their due times before the rest are discarded. */
    private Duration drainTimeout = Duration.ofSeconds(30);

    /**
     * Whether pending jobs run at their times when the application stops (for up to the drain
     * timeout); false: they are discarded when the wheel is destroyed, as for an application whose
     * jobs are only timers over work kept elsewhere.
     */
    private boolean drainOnStop = true;

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public Duration getTick() {
        return tick;
    }

    public void setTick(Duration tick) {
        this.tick = tick;
    }

    public int getSlots() {
        return slots;
    }

    public void setSlots(int slots) {
        this.slots = slots;
    }

    public int getWorkerThreads() {
        return workerThreads;
    }

    public void setWorkerThreads(int workerThreads) {
        this.workerThreads = workerThreads;
    }

    public long getMaxPending() {
        return maxPending;
    }

    public void setMaxPending(long maxPending) {
        this.maxPending = maxPending;
    }

    public Duration getMaxDelay() {
        return maxDelay;
    }

    public void setMaxDelay(Duration maxDelay) {
        this.maxDelay = maxDelay;
    }

    public Duration getDrainTimeout() {
        return drainTimeout;
    }

    public void setDrainTimeout(Duration drainTimeout) {
        this.drainTimeout = drainTimeout;
    }

    public boolean isDrainOnStop() {
        return drainOnStop;
    }

    public void setDrainOnStop(boolean drainOnStop) {
        this.drainOnStop = drainOnStop;
    }
}
