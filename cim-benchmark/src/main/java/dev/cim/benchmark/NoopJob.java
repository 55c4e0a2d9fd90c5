package dev.cim.benchmark;

/**
 * The one job object shared by every scheduled job in the cost and memory measurements, so job
 * objects neither cost allocation nor count as retained heap. It is never due within a measurement.
 */
final class NoopJob extends BenchJob {

    static final NoopJob INSTANCE = new NoopJob();

    private NoopJob() {
    }

    @Override
    public void run() {
        // nothing: only the timer's own cost is of interest
    }
}
