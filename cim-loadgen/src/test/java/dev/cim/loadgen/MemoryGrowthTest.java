package dev.cim.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MemoryGrowthTest {

    @Test
    void per_dividesTheGrowthByTheItems_withBothReadingsInMebibytes() {
        assertThat(new MemoryGrowth(10 * 1048576L, 10 * 1048576L + 300_000).per(1000, "msg"))
                .isEqualTo("10.0 MiB → 10.3 MiB: **300 bytes per msg**");
    }

    @Test
    void per_aMissingReading_isUnreadable_andNoItems_isSaid() {
        assertThat(new MemoryGrowth(-1, 5).per(10, "msg")).isEqualTo("unreadable");
        assertThat(new MemoryGrowth(1048576L, 1048576L).per(0, "series")).isEqualTo("1.0 MiB → 1.0 MiB: none added");
        assertThat(MemoryGrowth.mib(-1)).isEqualTo("?");
    }
}
