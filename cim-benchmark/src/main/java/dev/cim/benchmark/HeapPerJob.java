package dev.cim.benchmark;

import java.lang.ref.Reference;
import java.util.concurrent.TimeUnit;

/**
 * Part 3: heap retained per pending job, the job object not counted (all jobs share one). On a
 * fresh, started timer: the bytes of all live objects ({@link HeapProbe#liveBytes()}, a live class
 * histogram), then {@code n} jobs scheduled from one thread and placed
 * ({@link TimerUnderTest#awaitSettled()}), handles dropped, live bytes again; (after − before) / n. It includes whatever the timer keeps per job: entry objects, wrapper objects
 * (the executor wraps each Runnable), and the job's share of its arrays (the executor's heap array).
 */
final class HeapPerJob {

    private HeapPerJob() {
    }

    static RoundStats measure(TimerKind kind, long[] delaysMillis, Settings settings) throws InterruptedException {
        int n = delaysMillis.length;
        RoundStats bytes = new RoundStats(settings.warmup());
        for (int round = 0; round < settings.rounds(); round++) {
            try (TimerUnderTest timer = kind.create()) {
                timer.awaitSettled();
                long before = HeapProbe.liveBytes();
                for (int i = 0; i < n; i++) {
                    timer.schedule(NoopJob.INSTANCE, delaysMillis[i], TimeUnit.MILLISECONDS);
                }
                timer.awaitSettled();
                long after = HeapProbe.liveBytes();
                Reference.reachabilityFence(timer);
                double perJob = (double) (after - before) / n;
                bytes.add(perJob);
                Log.info("part 3 %s round %d: %.2f bytes/job (%d -> %d bytes)", kind.label(), round, perJob, before, after);
            }
        }
        return bytes;
    }
}
