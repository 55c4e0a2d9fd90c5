package dev.cim.benchmark;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Compares our delay wheel with Netty's {@code HashedWheelTimer}, Kafka's {@code SystemTimer} and
 * {@code ScheduledThreadPoolExecutor(1)} in one run, on the measurements JMH cannot express (CPU of
 * other threads, heap per job, lateness distributions, idle CPU), and prints one markdown table
 * followed by the machine, the date and the command line. Progress goes to stderr.
 *
 * <pre>
 * java -Xms8g -Xmx8g -cp cim-benchmark/target/benchmarks.jar dev.cim.benchmark.WheelComparison --parts=1,3,4,5
 * java -Xmx8g -cp cim-benchmark/target/benchmarks.jar dev.cim.benchmark.WheelComparison --parts=2
 *      [--quick] [--rounds=5]
 * </pre>
 * Parts (1 ms tick unless stated): 1 schedule cost ({@link ScheduleCost}), 2 cancel cost and memory
 * release at a 100 ms tick ({@link CancelCost}), 3 heap per pending job ({@link HeapPerJob}), 4
 * firing lateness ({@link Lateness}), 5 idle CPU with nothing due and with 5 M far-future jobs
 * ({@link IdleCpu}). Parts 1 and 3-5 want a fixed heap ({@code -Xms} = {@code -Xmx}); part 2 a
 * growing one, since it probes memory release with full collections. {@code --quick} shrinks all job
 * counts 10x and the idle windows 5x, for a smoke test only.
 */
public final class WheelComparison {

    private final Settings settings;
    private final Set<TimerKind> timers;
    private final ResultTable table;

    private WheelComparison(Settings settings, Set<TimerKind> timers) {
        this.settings = settings;
        this.timers = timers;
        this.table = new ResultTable(timers);
    }

    public static void main(String[] args) throws Exception {
        Set<Integer> parts = new TreeSet<>(Set.of(1, 2, 3, 4, 5));
        Set<TimerKind> timers = EnumSet.allOf(TimerKind.class);
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
            } else if (arg.startsWith("--timers=")) {
                timers.clear();
                for (String name : arg.substring("--timers=".length()).split(",")) {
                    timers.add(TimerKind.valueOf(name.trim().toUpperCase(Locale.ROOT)));
                }
            } else if (arg.equals("--quick")) {
                quick = true;
            } else if (arg.startsWith("--rounds=")) {
                rounds = Integer.parseInt(arg.substring("--rounds=".length()));
            } else {
                throw new IllegalArgumentException("unknown argument (expected: --parts=1,2,.. --timers=OURS,HWT,KAFKA,STPE"
                        + " --quick --rounds=N): " + arg);
            }
        }
        CpuClock.enable();
        ZonedDateTime started = ZonedDateTime.now().truncatedTo(ChronoUnit.SECONDS);
        WheelComparison run = new WheelComparison(new Settings(quick, rounds, Math.min(2, rounds - 1)), timers);
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
            run.idleCpu();
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
            for (TimerKind kind : timers) {
                results.put(kind, ScheduleCost.measure(kind, threads, delays, settings));
            }
            String what = "1. schedule " + jobs(delays.length) + " (1..3600 s), " + threads + " thread"
                    + (threads > 1 ? "s" : "") + ": ";
            ResultTable.Row caller = table.add(what + "caller CPU ns/job");
            ResultTable.Row full = table.add(what + "**full** ns/job (caller + timer thread)");
            ResultTable.Row gc = table.add(what + "GC pause ms per 1 M jobs in the window (not in the above)");
            for (TimerKind kind : timers) {
                caller.cell(kind, results.get(kind).callerNsPerJob().format(1));
                full.cell(kind, results.get(kind).fullNsPerJob().format(1));
                gc.cell(kind, results.get(kind).gcMillisPerMillion().format(1));
            }
            double oursCaller = median(results, TimerKind.OURS, ScheduleCost.Result::callerNsPerJob);
            double oursFull = median(results, TimerKind.OURS, ScheduleCost.Result::fullNsPerJob);
            double hwtFull = median(results, TimerKind.HWT, ScheduleCost.Result::fullNsPerJob);
            caller.info("ours ÷ HWT", oursCaller, median(results, TimerKind.HWT, ScheduleCost.Result::callerNsPerJob));
            if (threads == 1) {
                full.target("ours ÷ HWT ≤ 0.8", oursFull, hwtFull, verdict(oursFull, hwtFull, oursFull <= 0.8 * hwtFull));
            } else {
                full.info("ours ÷ HWT", oursFull, hwtFull);
            }
        }
    }

    private void cancelCost() throws InterruptedException {
        long[] delays = ScheduleCost.delaysMillis(settings.costJobs());
        Map<TimerKind, CancelCost.Result> results = new EnumMap<>(TimerKind.class);
        for (TimerKind kind : timers) {
            results.put(kind, CancelCost.measure(kind, delays, settings));
        }
        long probeMillis = CancelCost.TICK.toMillis();
        String what = "2. cancel " + jobs(delays.length) + ", 1 thread, tick " + probeMillis + " ms: ";
        ResultTable.Row caller = table.add(what + "caller CPU ns/job");
        ResultTable.Row full = table.add(what + "**full** ns/job (caller + timer thread)");
        ResultTable.Row atTick = table.add("2. % of cancelled jobs' memory collectable by a GC started 1 tick ("
                + probeMillis + " ms) after the last cancel");
        ResultTable.Row release = table.add("2. all memory released after cancel, ms (upper bound, ≥ " + probeMillis
                + " by method; [longest full GC])");
        for (TimerKind kind : timers) {
            CancelCost.Result result = results.get(kind);
            caller.cell(kind, result.callerNsPerJob().format(1));
            full.cell(kind, result.fullNsPerJob().format(1));
            atTick.cell(kind, result.goneAtOneTickPercent().format(1));
            String released = result.releaseMillis().isEmpty() ? "never" : result.releaseMillis().format(1);
            release.cell(kind, released + (result.unreleased() > 0 ? " [" + result.unreleased() + " round(s) > 20 s]" : "")
                    + String.format(Locale.ROOT, " [GC ≤ %.0f ms]", result.longestGcMillis()));
        }
        double oursCaller = median(results, TimerKind.OURS, CancelCost.Result::callerNsPerJob);
        double hwtCaller = median(results, TimerKind.HWT, CancelCost.Result::callerNsPerJob);
        double oursFull = median(results, TimerKind.OURS, CancelCost.Result::fullNsPerJob);
        double hwtFull = median(results, TimerKind.HWT, CancelCost.Result::fullNsPerJob);
        double oursGone = median(results, TimerKind.OURS, CancelCost.Result::goneAtOneTickPercent);
        caller.target("ours ÷ HWT ≤ 1", oursCaller, hwtCaller, verdict(oursCaller, hwtCaller, oursCaller <= hwtCaller));
        full.target("ours ÷ HWT ≤ 1", oursFull, hwtFull, verdict(oursFull, hwtFull, oursFull <= hwtFull));
        atTick.target("100% (median): released within 1 tick", oursGone, 100, verdict(oursGone, 100, oursGone >= 100));
        release.info("ours ÷ HWT", median(results, TimerKind.OURS, CancelCost.Result::releaseMillis),
                median(results, TimerKind.HWT, CancelCost.Result::releaseMillis));
    }

    private void heapPerJob() throws InterruptedException {
        long[] delays = ScheduleCost.delaysMillis(settings.costJobs());
        Map<TimerKind, RoundStats> results = new EnumMap<>(TimerKind.class);
        for (TimerKind kind : timers) {
            results.put(kind, HeapPerJob.measure(kind, delays, settings));
        }
        ResultTable.Row row = table.add("3. retained heap bytes per pending job (" + jobs(delays.length)
                + " pending, job object shared; Kafka's includes its TimerTask wrapper)");
        for (TimerKind kind : timers) {
            row.cell(kind, results.get(kind).format(1));
        }
        double ours = median(results, TimerKind.OURS, stats -> stats);
        row.target("≤ 48 B (ours ÷ 48)", ours, 48, verdict(ours, 48, ours <= 48));
    }

    private void lateness() throws InterruptedException {
        Lateness.Result executor = timers.contains(TimerKind.STPE)
                ? Lateness.measure(TimerKind.STPE, Duration.ZERO, settings) : null;
        for (Duration tick : new Duration[] {Duration.ofMillis(1), Duration.ofMillis(10)}) {
            Map<TimerKind, Lateness.Result> results = new EnumMap<>(TimerKind.class);
            for (TimerKind kind : timers) {
                if (kind != TimerKind.STPE) {
                    results.put(kind, Lateness.measure(kind, tick, settings));
                }
            }
            long tickMillis = tick.toMillis();
            ResultTable.Row row = table.add("4. lateness p50 / p99 / max ms [early runs], " + jobs(settings.latenessJobs())
                    + " jobs over 0..2 s, tick " + tickMillis + " ms");
            results.forEach((kind, result) -> row.cell(kind, latenessCell(result)));
            if (executor != null) {
                row.cell(TimerKind.STPE, tickMillis == 1 ? latenessCell(executor) + " (no tick)" : "(no tick: see 1 ms row)");
            }
            Lateness.Result ours = results.get(TimerKind.OURS);
            boolean clean = ours != null && ours.missing() == 0 && ours.lateness().countNegative() == 0;
            double oursP99 = ours == null ? Double.NaN : ours.lateness().percentile(99);
            if (tickMillis == 1) {
                double executorP99 = executor == null ? Double.NaN : executor.lateness().percentile(99);
                row.target("p99 ≤ 2× STPE's (ours ÷ STPE), 0 early", oursP99, executorP99,
                        verdict(oursP99, executorP99, clean && oursP99 <= 2 * executorP99));
            } else {
                double hwtP99 = results.containsKey(TimerKind.HWT)
                        ? results.get(TimerKind.HWT).lateness().percentile(99) : Double.NaN;
                row.target("p99 ≤ tick + 2 ms, 0 early (ours ÷ HWT)", oursP99, hwtP99,
                        verdict(oursP99, 1, clean && oursP99 <= tick.toNanos() + 2e6));
            }
        }
    }

    /** A timer's figure from a part's results: NaN when that timer was not run (see --timers). */
    private static <R> double median(Map<TimerKind, R> results, TimerKind kind, Function<R, Object> figure) {
        R result = results.get(kind);
        if (result == null) {
            return Double.NaN;
        }
        Object value = figure.apply(result);
        if (value instanceof RoundStats stats) {
            return stats.isEmpty() ? Double.NaN : stats.median();
        }
        return (Double) value;
    }

    /** The verdict, or none when a figure it compares is missing. */
    private static Boolean verdict(double ours, double other, boolean met) {
        return Double.isNaN(ours) || Double.isNaN(other) ? null : met;
    }

    private static String latenessCell(Lateness.Result result) {
        Percentiles p = result.lateness();
        return String.format(Locale.ROOT, "%.3f / %.3f / %.3f [%d]%s", p.percentile(50) / 1e6,
                p.percentile(99) / 1e6, p.max() / 1e6, p.countNegative(),
                result.missing() > 0 ? " " + result.missing() + " never ran" : "");
    }

    private void idleCpu() throws InterruptedException {
        for (int pending : new int[] {0, settings.idlePending()}) {
            Map<TimerKind, IdleCpu.Result> results = new EnumMap<>(TimerKind.class);
            for (TimerKind kind : timers) {
                results.put(kind, IdleCpu.measure(kind, pending, settings));
            }
            String what = "5. idle CPU, % of one core, " + (pending == 0 ? "nothing pending" : jobs(pending)
                    + " pending due in 1..2 h") + ", tick 1 ms: ";
            ResultTable.Row threads = table.add(what + "the timer's threads");
            ResultTable.Row process = table.add(what + "whole process");
            results.forEach((kind, result) -> {
                threads.cell(kind, String.format(Locale.ROOT, "%.3f", result.timerPercent()));
                process.cell(kind, String.format(Locale.ROOT, "%.3f", result.processPercent()));
            });
            double oursThreads = median(results, TimerKind.OURS, IdleCpu.Result::timerPercent);
            double kafkaThreads = median(results, TimerKind.KAFKA, IdleCpu.Result::timerPercent);
            double oursProcess = median(results, TimerKind.OURS, IdleCpu.Result::processPercent);
            double kafkaProcess = median(results, TimerKind.KAFKA, IdleCpu.Result::processPercent);
            threads.target("≤ Kafka's (ours ÷ Kafka)", oursThreads, kafkaThreads,
                    verdict(oursThreads, kafkaThreads, oursThreads <= kafkaThreads));
            process.target("≤ Kafka's (ours ÷ Kafka)", oursProcess, kafkaProcess,
                    verdict(oursProcess, kafkaProcess, oursProcess <= kafkaProcess));
        }
    }

    private String report(Set<Integer> parts, ZonedDateTime started) {
        StringBuilder out = new StringBuilder();
        out.append("# Delay timers compared: cim DelayScheduler vs Netty HashedWheelTimer vs Kafka SystemTimer"
                + " vs ScheduledThreadPoolExecutor\n\n");
        if (settings.quick()) {
            out.append("**QUICK RUN (--quick): job counts shrunk 10x, idle windows 5x; smoke test only, not comparable.**\n\n");
        }
        out.append(table.toMarkdown()).append('\n');
        out.append("Cells: median (min–max) of ").append(settings.rounds() - settings.warmup())
                .append(" rounds after ").append(settings.warmup())
                .append(" warm-up rounds, a fresh timer each round (parts 1–3); part 4 pools 2 rounds after 1 warm-up;"
                        + " part 5 is one ").append(settings.idleWindowNanos() / 1_000_000_000L)
                .append(" s window per cell.\n\n");
        out.append("Setup: tick ").append(TimerKind.DEFAULT_TICK.toMillis()).append(" ms unless the row says otherwise."
                + " ours = DelayScheduler (512 slots, maxDelay ").append(OursTimer.MAX_DELAY)
                .append(", 1 worker); HWT = io.netty.util.HashedWheelTimer (512 slots, Netty ").append(nettyVersion())
                .append("); Kafka = org.apache.kafka.server.util.timer.SystemTimer (wheel size ").append(KafkaTimer.WHEEL_SIZE)
                .append(", its default) behind a SystemTimerReaper, kafka-server-common ").append(kafkaVersion())
                .append(", each job wrapped in a TimerTask with its delay in whole ms as Kafka's API takes it;"
                        + " STPE = ScheduledThreadPoolExecutor(1) with setRemoveOnCancelPolicy(true) (by default it would"
                        + " keep cancelled tasks until due).\n\n");
        out.append("Notes:\n");
        out.append("- CPU figures come from ThreadMXBean thread CPU time; GC threads are not counted for any timer,"
                + " except in part 5's whole-process rows (").append(ProcessCpu.source()).append(").\n");
        out.append("- full = (CPU of the calling threads + CPU of the timer's thread from the start until all work was"
                + " placed/unlinked − that thread's idle CPU over an equally long window) / jobs. \"Placed\" = two zero-delay"
                + " marker jobs scheduled one after the other have run (see TimerUnderTest#awaitSettled). The timer's"
                + " thread is ours' ticker, Netty's worker, Kafka's reaper, the executor's worker; Kafka and the"
                + " executor place a job in the calling thread.\n");
        out.append("- Memory release (part 2): weak references to 1,000 sampled handles, all other references dropped."
                + " No GC until exactly 1 tick after the end of the cancel loop; the % row is what a full GC started then"
                + " could collect. Then full GCs, each after a pause as long as the last took (so the timer thread is not"
                + " starved), until all were cleared; the ms row is the start of that last GC: an upper bound, late by up"
                + " to two full GCs (the longest in brackets), and never below the first probe. Run without -Xms: with a"
                + " large committed heap each full GC takes up to seconds.\n");
        out.append("- Heap per job: (live bytes with the jobs pending − before) / jobs, live bytes = total of an in-process"
                + " GC.class_histogram (exact object bytes; G1's heap occupancy after System.gc() varies by tens of KB)."
                + " UseCompressedOops=")
                .append(HeapProbe.vmOption("UseCompressedOops")).append(", UseCompressedClassPointers=")
                .append(HeapProbe.vmOption("UseCompressedClassPointers")).append(", ObjectAlignmentInBytes=")
                .append(HeapProbe.vmOption("ObjectAlignmentInBytes")).append(".\n");
        out.append("- Lateness = run time − (time read just before schedule() was called + delay); a run counted early"
                + " ran before any due time the timer could have computed. Kafka's early runs come from its whole-ms"
                + " delays and clock.\n");
        out.append("- Idle CPU (part 5): after the jobs were placed and a GC, 0.5 s of calm, then the CPU time of all the"
                + " timer's threads (ticker and workers; worker; reaper and executor; worker) and of the whole process"
                + " over the window, as a percentage of one core.\n\n");
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

    /** The version of kafka-server-common's companion kafka-clients on the class path. */
    private static String kafkaVersion() {
        return org.apache.kafka.common.utils.AppInfoParser.getVersion();
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
