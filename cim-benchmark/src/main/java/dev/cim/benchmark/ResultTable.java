package dev.cim.benchmark;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The one markdown table WheelComparison prints: a row per measurement, a column per timer, then the
 * target, the ratio the target is about (its text says which: ours ÷ Kafka, ours ÷ STPE, ...) and
 * whether ours met it.
 */
final class ResultTable {

    /** One measurement's line. */
    static final class Row {
        private final String measurement;
        private final Map<TimerKind, String> cells = new EnumMap<>(TimerKind.class);
        private String target = "(info)";
        private String ratio = "";
        private String met = "";

        Row(String measurement) {
            this.measurement = measurement;
        }

        Row cell(TimerKind kind, String value) {
            cells.put(kind, value);
            return this;
        }

        /**
         * The target, the ratio it compares ({@code ours / other}, "n/a" if either is unknown or the
         * other is 0) and whether ours met it ({@code null}: no verdict, an information row).
         */
        Row target(String text, double ours, double other, Boolean met) {
            this.target = text;
            this.ratio = other == 0 || Double.isNaN(ours) || Double.isNaN(other)
                    ? "n/a" : String.format(Locale.ROOT, "%.2f", ours / other);
            this.met = met == null ? "" : met ? "yes" : "**no**";
            return this;
        }

        /** An information row with a ratio but no target. */
        Row info(String ratioText, double ours, double other) {
            return target("(info) " + ratioText, ours, other, null);
        }
    }

    private final List<Row> rows = new ArrayList<>();
    private final Set<TimerKind> timers;

    /** @param timers the columns, in {@link TimerKind} order */
    ResultTable(Set<TimerKind> timers) {
        this.timers = timers;
    }

    Row add(String measurement) {
        Row row = new Row(measurement);
        rows.add(row);
        return row;
    }

    String toMarkdown() {
        StringBuilder out = new StringBuilder();
        out.append("| measurement |");
        for (TimerKind kind : timers) {
            out.append(' ').append(kind.label()).append(" |");
        }
        out.append(" target | ratio | met? |\n|---|");
        out.append("---|".repeat(timers.size())).append("---|---|---|\n");
        for (Row row : rows) {
            out.append("| ").append(row.measurement).append(" |");
            for (TimerKind kind : timers) {
                out.append(' ').append(row.cells.getOrDefault(kind, "—")).append(" |");
            }
            out.append(' ').append(row.target).append(" | ").append(row.ratio).append(" | ")
                    .append(row.met).append(" |\n");
        }
        return out.toString();
    }
}
