package dev.cim.loadgen;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one markdown table a run prints, with what is needed to repeat and judge it: the machine, the
 * server's settings and the exact command. Rows are kept in part order whatever order the parts ran.
 */
final class Report {

    /**
     * One line of the table.
     *
     * @param part        1 to 5
     * @param measurement what is counted
     * @param result      what was measured
     * @param target      the target, or "" for context rows
     */
    record Row(int part, String measurement, String result, String target) {
    }

    private final List<Row> rows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    synchronized void add(int part, String measurement, String result, String target) {
        rows.add(new Row(part, measurement, result, target));
    }

    synchronized void note(String note) {
        notes.add(note);
    }

    /** The whole report, markdown. */
    synchronized String render(String title, String server, String command) {
        StringBuilder out = new StringBuilder();
        out.append("## ").append(title).append("\n\n");
        out.append("- when: ").append(OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS)).append('\n');
        out.append("- machine: ").append(machine()).append('\n');
        out.append("- server: ").append(server).append('\n');
        out.append("- command: `").append(command).append("`\n\n");
        out.append("| part | measurement | result | target |\n| --- | --- | --- | --- |\n");
        rows.stream().sorted(Comparator.comparingInt(Row::part)).forEach(row -> out.append("| ").append(row.part())
                .append(" | ").append(row.measurement()).append(" | ").append(row.result()).append(" | ")
                .append(row.target()).append(" |\n"));
        if (!notes.isEmpty()) {
            out.append('\n');
            notes.forEach(note -> out.append("- ").append(note).append('\n'));
        }
        return out.toString();
    }

    /** Cores, memory, operating system and JVM of this host. */
    static String machine() {
        Runtime runtime = Runtime.getRuntime();
        return String.format(Locale.ROOT, "%d cores, %s RAM, %s %s, %s %s (%s), generator -Xmx %d MiB, ulimit -n %s",
                runtime.availableProcessors(), memTotal(), System.getProperty("os.name"),
                System.getProperty("os.version"), System.getProperty("java.vm.name"),
                System.getProperty("java.runtime.version"), System.getProperty("java.vm.vendor"),
                runtime.maxMemory() >> 20, fileLimit());
    }

    private static String memTotal() {
        try {
            Matcher m = Pattern.compile("MemTotal:\\s+(\\d+) kB").matcher(Files.readString(Path.of("/proc/meminfo")));
            return m.find() ? String.format(Locale.ROOT, "%.1f GiB", Long.parseLong(m.group(1)) / 1048576.0) : "?";
        } catch (IOException e) {
            return "?";
        }
    }

    private static String fileLimit() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (line.startsWith("Max open files")) {
                    return line.replaceAll("\\s+", " ").split(" ")[3];
                }
            }
        } catch (IOException e) {
            // not Linux: say so below
        }
        return "?";
    }

    /** The command line of this JVM, as the operating system knows it. */
    static String command() {
        return ProcessHandle.current().info().commandLine()
                .orElse("java " + String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
    }
}
