package dev.cim.loadgen;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Logins as a server counts them: its {@code cim.logins} counter read from its metrics endpoint
 * every {@value #EVERY_MILLIS} ms on a thread of its own, so that a login rate is the
 * server's own, whatever number of generator processes drive it. A login "again" is one of an
 * existing account: {@code outcome=accepted} (the server counts those that created theirs as
 * {@code outcome=created}). The one meter, not the Prometheus page: a scrape of every meter costs the
 * server 6.5 ms of CPU, ten times a second 6.5 % of a core taken from what is measured; this read, 2 ms.
 */
final class ServerLogins implements AutoCloseable {

    static final long EVERY_MILLIS = 100;
    private static final Pattern COUNT = Pattern.compile("\"statistic\":\"COUNT\",\"value\":([^,}\\]]+)");

    /** The logins again counted by a moment: {@code nanos} from {@link System#nanoTime()}. */
    record Sample(long nanos, long again) {
    }

    /**
     * What the samples show.
     *
     * @param again     logins again from the first sample to the last
     * @param perSecond over the span in which they came (from the last sample before the first to
     *                  the first sample after the last), per second
     * @param peak      the most in any one second (ten samples apart), per second
     */
    record Rate(long again, double perSecond, long peak) {

        String describe() {
            return String.format(Locale.ROOT, "%,d logins again counted by the server: %,.0f/s from the first to the "
                    + "last, at most %,d in one second", again, perSecond, peak);
        }
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final HttpRequest request;
    private final List<Sample> samples = new ArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile String failure;

    ServerLogins(int managementPort) {
        request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort
                + "/actuator/metrics/cim.logins?tag=outcome:accepted"))
                .timeout(Duration.ofSeconds(5)).build();
        thread = new Thread(this::poll, "cim-loadgen-server-logins");
        thread.setDaemon(true);
        thread.start();
    }

    private void poll() {
        long next = System.nanoTime();
        while (running) {
            try {
                String body = http.send(request, HttpResponse.BodyHandlers.ofString()).body();
                long again = again(body);
                synchronized (samples) {
                    samples.add(new Sample(System.nanoTime(), again));
                }
            } catch (IOException | RuntimeException e) {
                failure = e.toString();
            } catch (InterruptedException e) {
                return;
            }
            next += EVERY_MILLIS * 1_000_000;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                try {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /** The logins again in the metrics endpoint's answer for {@code cim.logins} with {@code outcome=accepted}. */
    static long again(String meter) {
        Matcher m = COUNT.matcher(meter);
        if (!m.find()) {
            throw new IllegalStateException("no COUNT of cim.logins (outcome=accepted) in the server's answer: " + meter);
        }
        return Math.round(Double.parseDouble(m.group(1)));
    }

    /** What {@code samples} (in time order) show; a rate of 0 when nothing was counted. */
    static Rate rate(List<Sample> samples) {
        if (samples.size() < 2) {
            return new Rate(0, 0, 0);
        }
        long base = samples.get(0).again();
        int first = -1;
        int last = -1;
        for (int i = 1; i < samples.size(); i++) {
            if (samples.get(i).again() != samples.get(i - 1).again()) {
                if (first < 0) {
                    first = i - 1;
                }
                last = i;
            }
        }
        if (first < 0) {
            return new Rate(0, 0, 0);
        }
        long again = samples.get(last).again() - base;
        double seconds = (samples.get(last).nanos() - samples.get(first).nanos()) / 1e9;
        long peak = 0;
        long second = 1_000_000_000L;
        for (int i = 0, j = 0; i < samples.size(); i++) {
            while (samples.get(i).nanos() - samples.get(j).nanos() > second) {
                j++;
            }
            peak = Math.max(peak, samples.get(i).again() - samples.get(j).again());
        }
        return new Rate(again, again / seconds, peak);
    }

    /** The logins again counted at the latest reading, or -1 before the first. */
    long latest() {
        synchronized (samples) {
            return samples.isEmpty() ? -1 : samples.get(samples.size() - 1).again();
        }
    }

    /** Waits until a reading taken after {@code nanos} ({@link System#nanoTime()}) is in, or {@code deadline}. */
    void awaitReadingAfter(long nanos, long deadline) throws InterruptedException {
        while (System.nanoTime() < deadline) {
            synchronized (samples) {
                if (!samples.isEmpty() && samples.get(samples.size() - 1).nanos() > nanos) {
                    return;
                }
            }
            TimeUnit.MILLISECONDS.sleep(EVERY_MILLIS / 4); // polling a condition, with a deadline
        }
    }

    /** What the samples so far show, or why there are none. */
    Rate rate() {
        List<Sample> taken;
        synchronized (samples) {
            taken = List.copyOf(samples);
        }
        if (taken.size() < 2 && failure != null) {
            throw new IllegalStateException("could not read the server's metrics: " + failure);
        }
        return rate(taken);
    }

    /** Stops reading; what the samples show, or why there are none. */
    Rate stop() throws InterruptedException {
        close();
        thread.join(5_000);
        return rate();
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
