package dev.cim.common.wheel;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ring-buffer {@link DelayScheduler}: a {@link TimingWheel} fed through an {@link EntryInbox}
 * and advanced by a {@link WheelTicker} (or, in tests, by hand through {@link #advance()}).
 *
 * <h3>Threads</h3>
 * Scheduling and cancelling never lock: they push onto the inbox and bump counters. The wheel itself
 * is guarded by {@link #wheelLock}, which its owner takes once per pass to take in the inbox, unlink
 * cancelled entries, move time and hand due entries to the worker {@link Executor}. The lock is
 * otherwise taken only by the rare callers that must see the whole wheel: {@link #pendingJobs()} and
 * the stops. Each entry leaves the pending state through one CAS on the entry, so a job runs at most
 * once whatever the interleaving of fire, cancel and stop.
 *
 * <h3>Wake-ups</h3>
 * The ticker does not tick: it sleeps until the {@link Alarm}, which each pass sets to the wheel's
 * next occupied slot ({@link Alarm#NEVER} when there is none). A schedule due before the alarm lowers
 * it and wakes the ticker; a far-future schedule only reads it. The first schedule after a pass
 * sets the alarm at most one tick ahead, so new entries are filed within a tick, in one pass per tick
 * however many arrive: the inbox never grows for long, and a burst costs no wake-up per job. The
 * first cancellation after a pass sets it to now, so cancelled entries leave the wheel (and memory,
 * and the count) as soon as the ticker wakes; the cancellations that arrive meanwhile go in the same
 * pass, so a bulk cancel costs one wake-up per batch, not per job. With nothing scheduled or
 * cancelled the ticker wakes only for the wheel's occupied slots. The ticker thread itself starts
 * on the first schedule.
 *
 * <h3>Counting</h3>
 * {@link #pending()} is the number of ids handed out minus the number of jobs that reached a
 * terminal state; ids come from one counter, so scheduling costs one shared atomic besides the push.
 *
 * <p>Its length is the one ticker loop and the stop modes (drain, stop now) that share its state;
 * the data structures it drives are classes of their own ({@link TimingWheel}, {@link EntryInbox},
 * {@link OccupancyBitmap}).
 */
final class WheelScheduler implements DelayScheduler {

    private static final Logger log = LoggerFactory.getLogger(DelayScheduler.class);

    private enum Phase { RUNNING, DRAINING, STOPPED }

    /** Settings checked by the builder. */
    record Config(TimeSource clock, long tickNanos, int slots, long maxDelayNanos, long maxPending,
            Duration shutdownTimeout) {
    }

    private final TimeSource clock;
    /**
     * The instant of slot 0 on {@link #clock}: alarm times and wheel slots count from it, and it is
     * read together with {@link #wallAnchor} to show monotonic deadlines as wall-clock instants.
     */
    private final long origin;
    private final long tickNanos;
    /** The wheel's resolution is {@code 1 << resolutionShift} ns; see {@link TimingWheel}. */
    private final int resolutionShift;
    private final long maxDelayNanos;
    private final long maxPending;
    private final Duration shutdownTimeout;
    private final Executor workers;
    /** The worker pool when this scheduler made it and so must shut it down; otherwise null. */
    private final ThreadPoolExecutor ownPool;

    /** The wall-clock reading taken with {@link #origin}. */
    private final Instant wallAnchor;

    private final EntryInbox inbox = new EntryInbox();
    private final AtomicLong lastId = new AtomicLong();
    private final LongAdder settled = new LongAdder();
    private volatile Phase phase = Phase.RUNNING;
    /** Serialises the phase changes of the two stops. */
    private final Object stopLock = new Object();

    private final ReentrantLock wheelLock = new ReentrantLock();
    /** Guarded by {@link #wheelLock}. */
    private final TimingWheel wheel;
    /** Guarded by {@link #wheelLock}: set by the stop's final sweep, after which nothing is filed. */
    private boolean swept;
    private final Consumer<WheelEntry> fileNew = this::fileNew;
    private final Consumer<WheelEntry> unlink = this::unlinkCancelled;
    /** Guarded by {@link #wheelLock}: cancellations taken from the inbox, counted in one add. */
    private long cancelsTaken;

    /** Null for a scheduler advanced by hand. */
    private final WheelTicker ticker;
    private final Alarm alarm;

    /**
     * @param tickerThreads makes the ticker's thread when the first job is scheduled; null for a
     *        scheduler without one, advanced by hand through {@link #advance()}
     */
    WheelScheduler(Config config, Executor workers, ThreadPoolExecutor ownPool, ThreadFactory tickerThreads) {
        this.clock = config.clock();
        this.tickNanos = config.tickNanos();
        this.maxDelayNanos = config.maxDelayNanos();
        this.maxPending = config.maxPending();
        this.shutdownTimeout = config.shutdownTimeout();
        this.workers = workers;
        this.ownPool = ownPool;
        this.origin = clock.nanoTime();
        this.wallAnchor = clock.instant();
        this.resolutionShift = TimingWheel.resolutionShift(tickNanos, config.slots());
        long maxDelaySlots = (maxDelayNanos >> resolutionShift) + 1;
        this.wheel = new TimingWheel(origin, resolutionShift, config.slots(),
                TimingWheel.levelsFor(config.slots(), maxDelaySlots), this::fire);
        this.ticker = tickerThreads == null ? null : new WheelTicker(this, tickerThreads, tickNanos);
        this.alarm = new Alarm(ticker == null ? () -> { } : ticker::wake);
    }

    @Override
    public ScheduledJob schedule(Runnable job, Duration delay) {
        requireJob(job);
        Objects.requireNonNull(delay, "delay (expected: a Duration up to the maximum delay)");
        // A delay of zero or less means "now", as for ScheduledExecutorService, Netty and Kafka.
        long nanos = delay.isNegative() ? 0 : delay.compareTo(MAX_NANOS) > 0 ? Long.MAX_VALUE : delay.toNanos();
        if (nanos > maxDelayNanos) {
            throw delayOutOfRange(delay.toString());
        }
        return enqueue(job, nanos);
    }

    @Override
    public ScheduledJob schedule(Runnable job, long delay, TimeUnit unit) {
        requireJob(job);
        Objects.requireNonNull(unit, "unit (expected: the TimeUnit of the delay)");
        long nanos = Math.max(0, unit.toNanos(delay)); // toNanos saturates rather than overflows
        if (nanos > maxDelayNanos) {
            throw delayOutOfRange(delay + " " + unit.name().toLowerCase(Locale.ROOT));
        }
        return enqueue(job, nanos);
    }

    private static final Duration MAX_NANOS = Duration.ofNanos(Long.MAX_VALUE);

    private static void requireJob(Runnable job) {
        Objects.requireNonNull(job, "job (expected: the Runnable to run after the delay)");
    }

    private IllegalArgumentException delayOutOfRange(String asked) {
        return new IllegalArgumentException("delay (expected: at most " + Duration.ofNanos(maxDelayNanos)
                + ", the maximum delay; zero or less runs at once): " + asked);
    }

    private ScheduledJob enqueue(Runnable job, long delayNanos) {
        if (phase != Phase.RUNNING) {
            throw new RejectedExecutionException("the scheduler is "
                    + phase.name().toLowerCase(Locale.ROOT) + " and takes no new jobs");
        }
        long id = lastId.incrementAndGet();
        if (maxPending > 0 && id - settled.sum() > maxPending) {
            settled.increment();
            throw new RejectedExecutionException("too many pending jobs: the cap is " + maxPending
                    + " (cim.wheel.max-pending)");
        }
        long now = clock.nanoTime();
        WheelEntry entry = new WheelEntry(this, id, now + delayNanos, job);
        long lookBy = delayNanos + now - origin;
        if (inbox.offerScheduled(entry)) { // the first since the last pass: have it filed within a tick
            lookBy = Math.min(lookBy, now - origin + tickNanos);
        }
        if (lookBy < alarm.at()) { // read after the push: see Alarm
            alarm.ringBy(lookBy); // a pass past the deadline files the entry past it, so fires it
        }
        if (phase == Phase.STOPPED) {
            rejectLateArrivals(entry);
        }
        return entry;
    }

    /**
     * A stop can slip between the phase check and the push above. If its final sweep has already
     * run, this entry and any like it would wait in the inbox forever: discard them here, and refuse
     * this call as if the check had seen the stop. An entry the sweep did take is in its report, and
     * its handle shows it as discarded.
     */
    private void rejectLateArrivals(WheelEntry entry) {
        wheelLock.lock();
        try {
            if (swept) {
                inbox.drainScheduled(late -> {
                    if (late.leavePending(WheelEntry.Mark.DISCARDED)) {
                        settled.increment();
                    }
                });
            }
        } finally {
            wheelLock.unlock();
        }
        if (entry.state() == JobState.DISCARDED) {
            throw new RejectedExecutionException("the scheduler stopped and takes no new jobs");
        }
    }

    /**
     * One pass, by the ticker thread (or a test): takes the cancellations, fires what is due by now,
     * files the new entries, and sets the alarm for the next occupied slot. Then it looks at the
     * inbox once more, because setting the alarm may have moved it later than a thread that was
     * scheduling at that moment saw (see {@link Alarm}).
     */
    void advance() {
        wheelLock.lock();
        try {
            if (swept) {
                return;
            }
            takeCancelled();
            wheel.advanceTo(clock.nanoTime());
            inbox.drainScheduled(fileNew);
            long next = wheel.nextEventNanos();
            alarm.set(next);
            takeCancelled();
            inbox.drainScheduled(fileNew);
            long again = wheel.nextEventNanos();
            if (again < next) {
                alarm.lower(again);
            }
        } finally {
            wheelLock.unlock();
        }
    }

    /**
     * How long the ticker may sleep before its next pass: 0 or less if it is due now,
     * {@link Long#MAX_VALUE} if nothing is pending.
     */
    long nanosUntilAlarm() {
        long at = alarm.at();
        return at == Alarm.NEVER ? Long.MAX_VALUE : at - (clock.nanoTime() - origin);
    }

    /** The width of the wheel's finest slots, for tests. */
    long resolutionNanos() {
        return 1L << resolutionShift;
    }

    /**
     * Unlinks the entries cancelled since the last call and takes them off {@link #pending()}, in
     * one add rather than one per cancel: like Netty's timer, a cancelled job leaves the count at
     * the next pass (which the first cancel after a pass asks for), which keeps an atomic off the
     * cancel path. Caller holds the wheel lock.
     */
    private void takeCancelled() {
        cancelsTaken = 0;
        inbox.drainCancelled(unlink);
        if (cancelsTaken > 0) {
            settled.add(cancelsTaken);
        }
    }

    private void unlinkCancelled(WheelEntry entry) {
        wheel.remove(entry);
        cancelsTaken++;
    }

    private void fileNew(WheelEntry entry) {
        // One cancelled while in the inbox is simply not filed. Only a cancel can have moved an
        // entry out of pending before it is filed, so an identity check will do.
        if (!entry.isCancelled()) {
            wheel.place(entry);
        }
    }

    /**
     * Hands a due entry to the workers. An executor that throws an exception, rejection or not, has
     * refused that one job: it is discarded and logged, and the pass goes on with the others. An
     * {@link Error} (such as "unable to create native thread") leaves the pass; the wheel keeps the
     * entry and every other one (see {@link TimingWheel#advanceTo}), and the next pass hands it over
     * again: the entry's own CAS still lets it run only once.
     */
    private void fire(WheelEntry entry) {
        if (!entry.isPending()) {
            return;
        }
        try {
            workers.execute(entry);
        } catch (RuntimeException refused) {
            String description = entry.description(); // before the entry lets go of the job
            if (entry.leavePending(WheelEntry.Mark.DISCARDED)) {
                settled.increment();
                log.error("Delayed job {} ({}) was due but the worker executor refused it; discarded",
                        entry.id(), description, refused);
            }
        }
    }

    void cancelled(WheelEntry entry) {
        if (inbox.offerCancelled(entry)) { // the first since the last pass: have one at once
            alarm.ringBy(0); // the origin: always past, so "now", without reading the clock
        }
        if (phase == Phase.STOPPED) { // no pass will take it: count it here
            wheelLock.lock();
            try {
                takeCancelled();
            } finally {
                wheelLock.unlock();
            }
        }
    }

    void finished() {
        settled.increment();
    }

    void jobFailed(WheelEntry entry, Runnable job, Throwable failure) {
        log.warn("Delayed job {} ({}) failed", entry.id(), Job.describe(job), failure);
    }

    /** The wall-clock instant of a deadline, fixed for the scheduler's life so a due time never wobbles. */
    Instant toInstant(long deadline) {
        return wallAnchor.plusNanos(deadline - origin);
    }

    @Override
    public long pending() {
        return lastId.get() - settled.sum();
    }

    @Override
    public List<PendingJob> pendingJobs() {
        List<PendingJob> jobs = new ArrayList<>();
        Consumer<WheelEntry> collect = entry -> {
            PendingJob line = entry.snapshot();
            if (line != null) {
                jobs.add(line);
            }
        };
        forEachWaiting(collect);
        if (ownPool != null) { // due, waiting for a worker
            ownPool.getQueue().forEach(task -> collect.accept((WheelEntry) task));
        }
        jobs.sort(DUE_ORDER);
        return jobs;
    }

    private static final Comparator<PendingJob> DUE_ORDER =
            Comparator.comparing(PendingJob::dueAt).thenComparingLong(PendingJob::id);

    @Override
    public StopReport drain(Duration timeout) throws InterruptedException {
        Objects.requireNonNull(timeout, "timeout (expected: a Duration >= 0)");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout (expected: >= 0): " + timeout);
        }
        synchronized (stopLock) {
            if (phase != Phase.RUNNING) {
                return StopReport.nothingLeft();
            }
            phase = Phase.DRAINING;
        }
        long deadline = clock.nanoTime() + timeout.toNanos();
        long nextLook = clock.nanoTime();
        while (pending() > 0) {
            long now = clock.nanoTime();
            long remaining = deadline - now;
            if (remaining <= 0) {
                break;
            }
            if (now - nextLook >= 0) { // a walk of the wheel, so not on every tick
                if (nothingDueBy(deadline)) {
                    break;
                }
                nextLook = now + DRAIN_LOOK_INTERVAL_NANOS;
            }
            LockSupport.parkNanos(this, Math.min(remaining, tickNanos));
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while draining the delay scheduler");
            }
        }
        phase = Phase.STOPPED;
        return stopAndSweep();
    }

    private static final long DRAIN_LOOK_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /**
     * Whether waiting for {@code deadline} is pointless: every unfinished job is filed in the wheel
     * or the inbox (none due or running) and due after it.
     */
    private boolean nothingDueBy(long deadline) {
        long[] waiting = {0};
        boolean[] dueInTime = {false};
        Consumer<WheelEntry> look = entry -> {
            if (entry.isPending()) {
                waiting[0]++;
                dueInTime[0] |= entry.deadline - deadline <= 0;
            }
        };
        forEachWaiting(look);
        return !dueInTime[0] && waiting[0] == pending();
    }

    /** Visits every entry filed in the wheel or still in the inbox, holding the wheel lock. */
    private void forEachWaiting(Consumer<WheelEntry> visitor) {
        wheelLock.lock();
        try {
            wheel.forEach(visitor);
            inbox.forEachScheduled(visitor);
        } finally {
            wheelLock.unlock();
        }
    }

    @Override
    public StopReport stopNow() {
        synchronized (stopLock) {
            if (phase == Phase.STOPPED) {
                return StopReport.nothingLeft();
            }
            phase = Phase.STOPPED;
        }
        return stopAndSweep();
    }

    @Override
    public void close() throws InterruptedException {
        StopReport report = drain(shutdownTimeout);
        if (!report.isComplete()) {
            log.warn("Delay scheduler closed after {}: {} jobs discarded, {} still running",
                    shutdownTimeout, report.discarded().size(), report.stillRunning());
        }
    }

    /** Stops the ticker and discards whatever has not started. The phase is already STOPPED. */
    private StopReport stopAndSweep() {
        if (ticker != null) {
            ticker.stop();
        }
        List<PendingJob> discarded = new ArrayList<>();
        Consumer<WheelEntry> discard = entry -> {
            PendingJob line = entry.snapshot();
            if (line != null && entry.leavePending(WheelEntry.Mark.DISCARDED)) {
                settled.increment();
                discarded.add(line);
            }
        };
        wheelLock.lock();
        try {
            swept = true;
            takeCancelled();
            inbox.drainScheduled(discard);
            wheel.drainAll(discard);
        } finally {
            wheelLock.unlock();
        }
        if (ownPool != null) {
            List<Runnable> waiting = new ArrayList<>();
            ownPool.getQueue().drainTo(waiting);
            waiting.forEach(task -> discard.accept((WheelEntry) task));
            ownPool.shutdown(); // running jobs finish; nothing is interrupted
        }
        discarded.sort(DUE_ORDER);
        return new StopReport(discarded, pending());
    }
}
