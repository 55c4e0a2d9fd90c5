package dev.cim.benchmark;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The one markdown table WheelComparison prints: a row per measurement, a column per timer, then the
 * ratio ours ÷ HashedWheelTimer, the target and whether ours met it.
 */
final class ResultTable {

    /** One measurement's line. */
    static final class Row {
        private final String measurement;
        private final Map<TimerKind, String> cells = new EnumMap<>(TimerKind.class);
        private String ratio = "";
        private String target = "";
        private String met = "";

        Row(String measurement) {
            this.measurement = measurement;
        }

        Row cell(TimerKind kind, String value) {
            cells.put(kind, value);
            return this;
        }

        /** Sets the ratio column to {@code ours / hwt}, if both are known. */
        Row ratio(double ours, double hwt) {
            ratio = hwt == 0 || Double.isNaN(ours) || Double.isNaN(hwt)
                    ? "n/a" : String.format(Locale.ROOT, "%.2f", ours / hwt);
            return this;
        }

        /** The target text and whether ours met it; {@code met} null means "no target on this row". */
        Row target(String text, Boolean met) {
            this.target = text;
            this.met = met == null ? "" : met ? "yes" : "**no**";
            return this;
        }
    }

    private final List<Row> rows = new ArrayList<>();

    Row add(String measurement) {
        Row row = new Row(measurement);
        rows.add(row);
        return row;
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    String toMarkdown() {
        StringBuilder out = new StringBuilder();
        out.append("| measurement |");
        for (TimerKind kind : TimerKind.values()) {
            out.append(' ').append(kind.label()).append(" |");
        }
        out.append(" ratio ours÷HWT | target | met? |\n|---|");
        out.append("---|".repeat(TimerKind.values().length)).append("---|---|---|\n");
        for (Row row : rows) {
            out.append("| ").append(row.measurement).append(" |");
            for (TimerKind kind : TimerKind.values()) {
                out.append(' ').append(row.cells.getOrDefault(kind, "—")).append(" |");
            }
            out.append(' ').append(row.ratio).append(" | ").append(row.target).append(" | ")
                    .append(row.met).append(" |\n");
        }
        return out.toString();
    }
}
