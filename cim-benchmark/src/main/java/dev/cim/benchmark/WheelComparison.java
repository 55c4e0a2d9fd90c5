package dev.cim.benchmark;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Compares our delay wheel with Netty's {@code HashedWheelTimer} and
 * {@code ScheduledThreadPoolExecutor(1)} in one run, on the measurements JMH cannot express (CPU of
 * another thread, heap per job, lateness distributions), and prints one markdown table followed by
 * the machine, the date and the command line. Progress goes to stderr.
 *
 * <pre>
 * java [-Xmx8g] -cp cim-benchmark/target/benchmarks.jar dev.cim.benchmark.WheelComparison
 *      [--parts=1,2,3,4,5] [--quick] [--rounds=5]
 * </pre>
 * Parts: 1 schedule cost ({@link ScheduleCost}), 2 cancel cost and memory release
 * ({@link CancelCost}), 3 heap per pending job ({@link HeapPerJob}), 4 firing lateness
 * ({@link Lateness}), 5 ticker CPU with many jobs pending ({@link TickerCpu}; 10 M jobs need about
 * {@code -Xmx8g}; do not add {@code -Xms8g}, which makes every full GC of part 2 take seconds).
 * {@code --quick} shrinks all job counts 10x, for a smoke test only.
 */
public final class WheelComparison {

    private static final long TEN_M_HEAP_NEEDED = 6L << 30;

    private final Settings settings;
    private final ResultTable table = new ResultTable();

    private WheelComparison(Settings settings) {
        this.settings = settings;
    }

    public static void main(String[] args) throws Exception {
        Set<Integer> parts = new TreeSet<>(Set.of(1, 2, 3, 4, 5));
        boolean quick = false;
        int rounds = 5;
        for (String arg : args) {
            if (arg.startsWith("--parts=")) {
                parts.clear();
                for (String part : arg.substring("--parts=".length()).split(",")) {
                    int number = Integer.parseInt(part.trim());
                    if (number < 1 || number > 5) {
                        throw new IllegalArgumentException("--parts (expected: numbers 1 to 5): " + arg);
                    }
                    parts.add(number);
                }
            } else if (arg.equals("--quick")) {
                quick = true;
            } else if (arg.startsWith("--rounds=")) {
                rounds = Integer.parseInt(arg.substring("--rounds=".length()));
            } else {
                throw new IllegalArgumentException("unknown argument (expected: --parts=1,2,.. --quick --rounds=N): " + arg);
            }
        }
        CpuClock.enable();
        ZonedDateTime started = ZonedDateTime.now().truncatedTo(ChronoUnit.SECONDS);
        WheelComparison run = new WheelComparison(new Settings(quick, rounds, Math.min(2, rounds - 1)));
        if (parts.contains(1)) {
            run.scheduleCost();
        }
        if (parts.contains(2)) {
            run.cancelCost();
        }
        if (parts.contains(3)) {
            run.heapPerJob();
        }
        if (parts.contains(4)) {
            run.lateness();
        }
        if (parts.contains(5)) {
            run.tickerCpu();
        }
        System.out.print(run.report(parts, started));
    }

    private String jobs(int n) {
        return n % 1_000_000 == 0 ? n / 1_000_000 + " M" : String.format(Locale.ROOT, "%,d", n);
    }

    private void scheduleCost() throws InterruptedException {
        long[] delays = ScheduleCost.delaysMillis(settings.costJobs());
        for (int threads = 1; threads <= 2; threads++) {
            Map<TimerKind, ScheduleCost.Result> results = new EnumMap<>(TimerKind.class);
            for (TimerKind kind : TimerKind.values()) {
                results.put(kind, ScheduleCost.measure(kind, threads, delays, settings));
            }
            String what = "1. schedule " + jobs(delays.length) + " (1..3600 s), " + threads + " thread"
                    + (threads > 1 ? "s" : "") + ": ";
            ResultTable.Row caller = table.add(what + "caller CPU ns/job");
            ResultTable.Row full = table.add(what + "**full** ns/job (caller + timer thread)");
            ResultTable.Row gc = table.add(what + "GC pause ms per 1 M jobs in the window (not in the above)");
            for (TimerKind kind : TimerKind.values()) {
                caller.cell(kind, results.get(kind).callerNsPerJob().format(1));
                full.cell(kind, results.get(kind).fullNsPerJob().format(1));
                gc.cell(kind, results.get(kind).gcMillisPerMillion().format(1));
            }
            gc.ratio(results.get(TimerKind.OURS).gcMillisPerMillion().median(),
                    results.get(TimerKind.HWT).gcMillisPerMillion().median()).target("(info)", null);
            caller.ratio(results.get(TimerKind.OURS).callerNsPerJob().median(),
                    results.get(TimerKind.HWT).callerNsPerJob().median()).target("(info)", null);
            double ratio = results.get(TimerKind.OURS).fullNsPerJob().median()
                    / results.get(TimerKind.HWT).fullNsPerJob().median();
            full.ratio(results.get(TimerKind.OURS).fullNsPerJob().median(),
                    results.get(TimerKind.HWT).fullNsPerJob().median()).target("≤ 0.8× HWT", ratio <= 0.8);
        }
    }

    private void cancelCost() throws InterruptedException {
        long[] delays = ScheduleCost.delaysMillis(settings.costJobs());
        Map<TimerKind, CancelCost.Result> results = new EnumMap<>(TimerKind.class);
        for (TimerKind kind : TimerKind.values()) {
            results.put(kind, CancelCost.measure(kind, delays, settings));
        }
        String what = "2. cancel " + jobs(delays.length) + ", 1 thread: ";
        ResultTable.Row caller = table.add(what + "caller CPU ns/job");
        ResultTable.Row full = table.add(what + "**full** ns/job (caller + timer thread)");
        ResultTable.Row atTick = table.add("2. % of cancelled jobs' memory collectable by a GC started 1 tick (100 ms) after the last cancel");
        ResultTable.Row release = table.add("2. all memory released after cancel, ms (upper bound, ≥ 100 by method; [longest full GC])");
        for (TimerKind kind : TimerKind.values()) {
            CancelCost.Result result = results.get(kind);
            caller.cell(kind, result.callerNsPerJob().format(1));
            full.cell(kind, result.fullNsPerJob().format(1));
            atTick.cell(kind, result.goneAtOneTickPercent().format(1));
            String released = result.releaseMillis().isEmpty() ? "never" : result.releaseMillis().format(1);
            release.cell(kind, released + (result.unreleased() > 0 ? " [" + result.unreleased() + " round(s) > 20 s]" : "")
                    + String.format(Locale.ROOT, " [GC ≤ %.0f ms]", result.longestGcMillis()));
        }
        CancelCost.Result ours = results.get(TimerKind.OURS);
        CancelCost.Result hwt = results.get(TimerKind.HWT);
        caller.ratio(ours.callerNsPerJob().median(), hwt.callerNsPerJob().median())
                .target("≤ 1× HWT", ours.callerNsPerJob().median() <= hwt.callerNsPerJob().median());
        full.ratio(ours.fullNsPerJob().median(), hwt.fullNsPerJob().median())
                .target("≤ 1× HWT", ours.fullNsPerJob().median() <= hwt.fullNsPerJob().median());
        atTick.ratio(ours.goneAtOneTickPercent().median(), hwt.goneAtOneTickPercent().median())
                .target("100% (median): released within 1 tick", ours.goneAtOneTickPercent().median() >= 100);
        if (hwt.releaseMillis().isEmpty()) {
            release.ratio(Double.NaN, Double.NaN);
        } else if (!ours.releaseMillis().isEmpty()) {
            release.ratio(ours.releaseMillis().median(), hwt.releaseMillis().median());
        }
        release.target("(info: see the row above)", null);
    }

    private void heapPerJob() throws InterruptedException {
        long[] delays = ScheduleCost.delaysMillis(settings.costJobs());
        Map<TimerKind, RoundStats> results = new EnumMap<>(TimerKind.class);
        for (TimerKind kind : TimerKind.values()) {
            results.put(kind, HeapPerJob.measure(kind, delays, settings));
        }
        ResultTable.Row row = table.add("3. retained heap bytes per pending job (" + jobs(delays.length)
                + " pending, job object shared)");
        for (TimerKind kind : TimerKind.values()) {
            row.cell(kind, results.get(kind).format(1));
        }
        double ours = results.get(TimerKind.OURS).median();
        row.ratio(ours, results.get(TimerKind.HWT).median()).target("≤ 48", ours <= 48);
    }

    private void lateness() throws InterruptedException {
        Lateness.Result executor = Lateness.measure(TimerKind.STPE, Duration.ZERO, settings);
        for (Duration tick : new Duration[] {Duration.ofMillis(1), Duration.ofMillis(10)}) {
            Lateness.Result ours = Lateness.measure(TimerKind.OURS, tick, settings);
            Lateness.Result hwt = Lateness.measure(TimerKind.HWT, tick, settings);
            long tickMillis = tick.toMillis();
            ResultTable.Row row = table.add("4. lateness p50 / p99 / max ms [early runs], " + jobs(settings.latenessJobs())
                    + " jobs over 0..2 s, tick " + tickMillis + " ms");
            row.cell(TimerKind.OURS, latenessCell(ours)).cell(TimerKind.HWT, latenessCell(hwt))
                    .cell(TimerKind.STPE, tickMillis == 1 ? latenessCell(executor) + " (no tick)" : "(no tick: see 1 ms row)");
            double limitNanos = tick.toNanos() + 2e6;
            boolean met = ours.missing() == 0 && ours.lateness().countNegative() == 0
                    && ours.lateness().percentile(99) <= limitNanos;
            row.ratio(ours.lateness().percentile(99), hwt.lateness().percentile(99))
                    .target("p99 ≤ " + (tickMillis + 2) + " ms, 0 early", met);
        }
    }

    private static String latenessCell(Lateness.Result result) {
        Percentiles p = result.lateness();
        return String.format(Locale.ROOT, "%.3f / %.3f / %.3f [%d]%s", p.percentile(50) / 1e6,
                p.percentile(99) / 1e6, p.max() / 1e6, p.countNegative(),
                result.missing() > 0 ? " " + result.missing() + " never ran" : "");
    }

    private void tickerCpu() throws InterruptedException {
        int[] sizes = settings.tickerPending();
        Map<TimerKind, double[]> results = new EnumMap<>(TimerKind.class);
        boolean bigFits = Runtime.getRuntime().maxMemory() >= TEN_M_HEAP_NEEDED;
        for (TimerKind kind : TimerKind.values()) {
            double[] perTick = new double[sizes.length];
            for (int i = 0; i < sizes.length; i++) {
                boolean big = i == sizes.length - 1 && !settings.quick();
                perTick[i] = big && !bigFits ? Double.NaN : TickerCpu.measure(kind, sizes[i], settings);
            }
            results.put(kind, perTick);
        }
        double oursIdle = results.get(TimerKind.OURS)[0];
        for (int i = 0; i < sizes.length; i++) {
            ResultTable.Row row = table.add("5. timer-thread CPU µs per 1 ms tick, " + jobs(sizes[i])
                    + " pending (due 1..2 h)");
            for (TimerKind kind : TimerKind.values()) {
                double value = results.get(kind)[i];
                row.cell(kind, Double.isNaN(value) ? "skipped: needs -Xmx8g"
                        : String.format(Locale.ROOT, "%.2f", value) + (kind == TimerKind.STPE ? " per ms" : ""));
            }
            row.ratio(results.get(TimerKind.OURS)[i], results.get(TimerKind.HWT)[i]);
            if (i == sizes.length - 1) {
                double ours = results.get(TimerKind.OURS)[i];
                row.target(String.format(Locale.ROOT, "≤ 2× ours at 0 (%.2f)", 2 * oursIdle),
                        Double.isNaN(ours) ? null : ours <= 2 * oursIdle);
            } else {
                row.target("(info)", null);
            }
        }
    }

    private String report(Set<Integer> parts, ZonedDateTime started) {
        StringBuilder out = new StringBuilder();
        out.append("# Delay timers compared: cim DelayScheduler vs Netty HashedWheelTimer vs ScheduledThreadPoolExecutor\n\n");
        if (settings.quick()) {
            out.append("**QUICK RUN (--quick): job counts shrunk 10x; smoke test only, not comparable.**\n\n");
        }
        out.append(table.toMarkdown()).append('\n');
        out.append("Cells: median (min–max) of ").append(settings.rounds() - settings.warmup())
                .append(" rounds after ").append(settings.warmup())
                .append(" warm-up rounds, a fresh timer each round (parts 1–3); part 4 pools 2 rounds after 1 warm-up;"
                        + " part 5 is one 3 s window per cell.\n\n");
        out.append("Setup: ours = DelayScheduler (tick 100 ms, 512 slots, maxDelay ").append(OursTimer.MAX_DELAY)
                .append(", 1 worker); HWT = io.netty.util.HashedWheelTimer (tick 100 ms, 512 slots, Netty ")
                .append(nettyVersion()).append("); STPE = ScheduledThreadPoolExecutor(1) with setRemoveOnCancelPolicy(true)"
                        + " (by default it would keep cancelled tasks until due). Parts 4–5 use the tick stated in the row.\n\n");
        out.append("Notes:\n");
        out.append("- CPU figures come from ThreadMXBean thread CPU time; GC threads are not counted for any timer.\n");
        out.append("- full = (CPU of the calling threads + CPU of the timer's thread from the start until all work was"
                + " placed/unlinked − that thread's idle CPU over an equally long window) / jobs. \"Placed\" = two zero-delay"
                + " marker jobs scheduled one after the other have run (see TimerUnderTest#awaitSettled).\n");
        out.append("- Memory release: weak references to 1,000 sampled handles, all other references dropped. No GC until"
                + " exactly 1 tick (100 ms) after the end of the cancel loop; the % row is what a full GC started then could"
                + " collect. Then full GCs, each after a pause as long as the last took (so the timer thread is not starved),"
                + " until all were cleared; the ms row is the start of that last GC: an upper bound, late by up to two full"
                + " GCs (the longest in brackets), and never below the 100 ms of the first probe. Run without -Xms: with a"
                + " large committed heap each full GC takes up to seconds.\n");
        out.append("- Heap per job: (live bytes with the jobs pending − before) / jobs, live bytes = total of an in-process"
                + " GC.class_histogram (exact object bytes; G1's heap occupancy after System.gc() varies by tens of KB)."
                + " UseCompressedOops=")
                .append(HeapProbe.vmOption("UseCompressedOops")).append(", UseCompressedClassPointers=")
                .append(HeapProbe.vmOption("UseCompressedClassPointers")).append(", ObjectAlignmentInBytes=")
                .append(HeapProbe.vmOption("ObjectAlignmentInBytes")).append(".\n");
        out.append("- Lateness = run time − (time read just before schedule() was called + delay); a run counted early"
                + " ran before any due time the timer could have computed.\n\n");
        Runtime runtime = Runtime.getRuntime();
        out.append("Machine: ").append(runtime.availableProcessors()).append(" cores (availableProcessors), max heap ")
                .append(runtime.maxMemory() >> 20).append(" MiB, ").append(System.getProperty("os.name")).append(' ')
                .append(System.getProperty("os.arch")).append(", ").append(System.getProperty("java.vm.name")).append(' ')
                .append(System.getProperty("java.vm.version")).append(", GC ").append(gcNames()).append("\n\n");
        out.append("Date: ").append(started).append(" (run took ")
                .append(Duration.between(started, ZonedDateTime.now()).toSeconds()).append(" s); parts ")
                .append(parts).append("\n\n");
        out.append("Command: `").append(commandLine()).append("`\n");
        return out.toString();
    }

    /** The version of netty-common on the class path, from Netty's own version resources. */
    private static String nettyVersion() {
        io.netty.util.Version common = io.netty.util.Version.identify().get("netty-common");
        return common == null ? "?" : common.artifactVersion();
    }

    private static String gcNames() {
        return String.join(" + ", ManagementFactory.getGarbageCollectorMXBeans().stream()
                .map(java.lang.management.GarbageCollectorMXBean::getName).toList());
    }

    private static String commandLine() {
        return ProcessHandle.current().info().commandLine().orElseGet(() -> "java "
                + String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments())
                + " -cp " + System.getProperty("java.class.path") + " " + WheelComparison.class.getName()
                + " (arguments not available)");
    }
}
