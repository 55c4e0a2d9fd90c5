package dev.cim.loadgen;

import java.awt.BasicStroke;
import java.awt.Color;
import java.text.DecimalFormat;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Draws {@link LatencyCurve}s with JFreeChart: p50, p99 and p99.9 in milliseconds (log scale)
 * against the offered rate, one colour per side and one line style per percentile, as a PNG.
 */
final class CurvePlot {

    private static final Color[] COLOURS = {new Color(0xC0392B), new Color(0x2471A3), new Color(0x229954)};
    private static final float[][] DASHES = {null, {6f, 4f}, {2f, 3f}};

    private CurvePlot() {
    }

    static void write(Path png, List<LatencyCurve.Curve> curves) throws IOException {
        System.setProperty("java.awt.headless", "true");
        XYSeriesCollection data = new XYSeriesCollection();
        for (LatencyCurve.Curve curve : curves) {
            XYSeries p50 = new XYSeries(curve.name() + " p50");
            XYSeries p99 = new XYSeries(curve.name() + " p99");
            XYSeries p999 = new XYSeries(curve.name() + " p99.9");
            for (LatencyCurve.Point point : curve.points()) {
                Percentiles latency = point.result().latency();
                if (latency.count() == 0) {
                    continue;
                }
                p50.add(point.offered(), Math.max(0.001, latency.p50() / 1e6));
                p99.add(point.offered(), Math.max(0.001, latency.p99() / 1e6));
                p999.add(point.offered(), Math.max(0.001, latency.p999() / 1e6));
            }
            data.addSeries(p50);
            data.addSeries(p99);
            data.addSeries(p999);
        }
        JFreeChart chart = ChartFactory.createXYLineChart("send → receipt latency against offered rate",
                "offered private messages per second", "latency, ms (log scale)", data, PlotOrientation.VERTICAL,
                true, false, false);
        XYPlot plot = chart.getXYPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        LogAxis axis = new LogAxis("latency, ms (log scale)");
        axis.setSmallestValue(0.01);
        axis.setTickUnit(new NumberTickUnit(1)); // one label per power of ten, written out: 0.1, 1, 10
        axis.setNumberFormatOverride(new DecimalFormat("0.##"));
        axis.setMinorTickCount(9);
        axis.setMinorTickMarksVisible(true);
        plot.setRangeAxis(axis);
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        for (int series = 0; series < data.getSeriesCount(); series++) {
            int side = series / 3;
            int percentile = series % 3;
            renderer.setSeriesPaint(series, COLOURS[side % COLOURS.length]);
            renderer.setSeriesStroke(series, DASHES[percentile] == null ? new BasicStroke(2f)
                    : new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, DASHES[percentile], 0f));
        }
        plot.setRenderer(renderer);
        ChartUtils.saveChartAsPNG(png.toFile(), chart, 960, 600);
    }
}
