package dev.cim.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServerLoginsTest {

    private static final long MS = 1_000_000;

    @Test
    void theLoginsAgain_areTheAcceptedOnes_notThoseThatCreatedTheirAccount() {
        // What GET /actuator/metrics/cim.logins?tag=outcome:accepted answers (the created ones are outcome=created).
        String meter = "{\"availableTags\":[],\"description\":\"logins accepted\",\"measurements\":"
                + "[{\"statistic\":\"COUNT\",\"value\":12345.0}],\"name\":\"cim.logins\"}";

        assertThat(ServerLogins.again(meter)).isEqualTo(12_345);
        assertThatThrownBy(() -> ServerLogins.again("{\"error\":\"Not Found\"}"))
                .hasMessageContaining("cim.logins (outcome=accepted)");
    }

    @Test
    void theRate_spansTheFirstToTheLastLogin_andThePeakIsTheMostInOneSecond() {
        // 100 ms apart: nothing for a second, then 300 logins per sample for a second (3,000/s),
        // 100 per sample for a second, then nothing.
        List<ServerLogins.Sample> samples = new ArrayList<>();
        long count = 50; // counted before the run
        long t = 0;
        for (int i = 0; i < 10; i++, t += 100 * MS) {
            samples.add(new ServerLogins.Sample(t, count));
        }
        for (int i = 0; i < 10; i++, t += 100 * MS) {
            count += 300;
            samples.add(new ServerLogins.Sample(t, count));
        }
        for (int i = 0; i < 10; i++, t += 100 * MS) {
            count += 100;
            samples.add(new ServerLogins.Sample(t, count));
        }
        for (int i = 0; i < 10; i++, t += 100 * MS) {
            samples.add(new ServerLogins.Sample(t, count));
        }

        ServerLogins.Rate rate = ServerLogins.rate(samples);

        assertThat(rate.again()).isEqualTo(4_000);
        assertThat(rate.perSecond()).isEqualTo(4_000 / 2.0); // from the sample before the first to the last
        assertThat(rate.peak()).isEqualTo(3_000); // ten increments of 300 within one second
        assertThat(ServerLogins.rate(samples.subList(0, 10))).isEqualTo(new ServerLogins.Rate(0, 0, 0));
    }
}
