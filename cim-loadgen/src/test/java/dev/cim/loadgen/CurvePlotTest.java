package dev.cim.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The latency curve's PNG: written, the size asked for, with something drawn for each side. */
class CurvePlotTest {

    @Test
    void write_drawsBothSidesCurves_toAPngOfTheGivenSize(@TempDir Path dir) throws Exception {
        Path png = dir.resolve("curve.png");

        CurvePlot.write(png, List.of(curve("server", 1.0), curve("relay", 0.3)));

        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image.getWidth()).isEqualTo(960);
        assertThat(image.getHeight()).isEqualTo(600);
        assertThat(countPixels(image, 0xC0392B)).as("the first side's colour").isGreaterThan(100);
        assertThat(countPixels(image, 0x2471A3)).as("the second side's colour").isGreaterThan(100);
    }

    private static LatencyCurve.Curve curve(String name, double scale) {
        List<LatencyCurve.Point> points = new ArrayList<>();
        for (double fraction : LatencyCurve.FRACTIONS) {
            long p50 = (long) (fraction * scale * 2_000_000);
            Percentiles latency = new Percentiles(1000, p50, p50 * 4, p50 * 6, p50 * 8);
            points.add(new LatencyCurve.Point(fraction * 100_000, Instant.EPOCH, new PacedRun.Result(fraction * 100_000, 1000, 0,
                    latency, Percentiles.EMPTY, new DeliveryLedger(16), new ReceiptCounts(), "")));
        }
        return new LatencyCurve.Curve(name, points);
    }

    private static int countPixels(BufferedImage image, int rgb) {
        int count = 0;
        for (int x = 0; x < image.getWidth(); x++) {
            for (int y = 0; y < image.getHeight(); y++) {
                if ((image.getRGB(x, y) & 0xFFFFFF) == rgb) {
                    count++;
                }
            }
        }
        return count;
    }
}
