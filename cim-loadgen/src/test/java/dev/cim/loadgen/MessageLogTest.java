package dev.cim.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MessageLogTest {

    @TempDir
    Path dir;

    @Test
    void eachMessage_isALine_ofItsIntendedTimeFromTheStart_itsLatency_andTheLag_inMicroseconds() throws IOException {
        Path file = dir.resolve("run").resolve("server-p25-5000.txt");
        MessageLog log = new MessageLog(file, 10);
        long start = 1_000_000_000L;
        log.add(start + 2_000_000, start + 2_000_000 + 7_500_000, start + 2_000_000 + 4_000_000);
        log.add(start + 1_000, start + 1_000 + 300_000, start + 1_000 + 50_000);

        log.write(start);

        assertThat(Files.readAllLines(file)).containsExactly("2000 7500 4000", "1 300 50");
    }

    @Test
    void messagesBeyondItsCapacity_areLeftOut() throws IOException {
        Path file = dir.resolve("full.txt");
        MessageLog log = new MessageLog(file, 2);
        for (int i = 0; i < 5; i++) {
            log.add(i * 1_000L, i * 1_000L + 1_000, i * 1_000L);
        }

        log.write(0);

        assertThat(Files.readAllLines(file)).containsExactly("0 1 0", "1 1 0");
    }

    @Test
    void aCapacityOutOfRange_isRefused_sayingWhatIsExpected() {
        assertThatThrownBy(() -> new MessageLog(dir.resolve("x.txt"), -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected: 0 to");
    }
}
