package dev.cim.server.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class FreshWritesTest {

    private final FreshWrites fresh = new FreshWrites(60_000);

    @Test
    void aWrite_isFreshForItsWindow_andForItsOwnKeyAndMemberOnly() {
        assertThat(fresh.fresh("index:alice", "alice\\u0000bob", 1_000_000)).isFalse();

        fresh.wrote("index:alice", "alice\\u0000bob", 1_000_000);

        assertThat(fresh.fresh("index:alice", "alice\\u0000bob", 1_000_000 + 59_000)).isTrue();
        assertThat(fresh.fresh("index:alice", "alice\\u0000bob", 1_000_000 + 60_000)).isFalse();
        assertThat(fresh.fresh("index:alice", "alice\\u0000carol", 1_000_000)).isFalse();
        assertThat(fresh.fresh("index:bob", "alice\\u0000bob", 1_000_000)).isFalse();
        assertThat(fresh.fresh("index:alice", "", 1_000_000)).isFalse();
    }

    @Test
    void theKeyAndMember_areNotOneString() {
        assertThat(FreshWrites.hash("ab", "c")).isNotEqualTo(FreshWrites.hash("a", "bc"));
    }

    @Test
    void aWriteSharingItsSlot_pushesTheOtherOut_soItIsWrittenAgainSooner_neverLater() {
        String first = "log:0";
        long slotOfFirst = FreshWrites.hash(first, "") & (FreshWrites.SLOTS - 1);
        String second = null;
        for (int i = 1; second == null; i++) {
            if ((FreshWrites.hash("log:" + i, "") & (FreshWrites.SLOTS - 1)) == slotOfFirst) {
                second = "log:" + i;
            }
        }
        fresh.wrote(first, "", 5_000);
        fresh.wrote(second, "", 5_000);

        assertThat(fresh.fresh(second, "", 6_000)).isTrue();
        assertThat(fresh.fresh(first, "", 6_000)).isFalse();
    }

    @Test
    void aWindowUnderASecond_isRefused() {
        assertThatThrownBy(() -> new FreshWrites(999)).hasMessageContaining("expected: >= 1000");
    }
}
