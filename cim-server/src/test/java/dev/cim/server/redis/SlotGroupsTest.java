package dev.cim.server.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.cluster.SlotHash;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** Keys gathered per script call: all at once on a single Redis, per hash slot on a cluster. */
class SlotGroupsTest {

    private static final List<String> KEYS = List.of("cim:{u:ann}:convs", "cim:{u:bob}:convs", "cim:{u:ann}:x",
            "cim:{u:cid}:convs", "cim:{u:bob}:y");

    @Test
    void onASingleRedis_everyKeyGoesInOneCall_inOrder() {
        SlotGroups groups = new SlotGroups(new LettuceConnectionFactory(new RedisStandaloneConfiguration()));

        assertThat(groups.split(KEYS, RedisBytes::of)).containsExactly(KEYS);
        assertThat(groups.split(List.<String>of(), RedisBytes::of)).isEmpty();
    }

    @Test
    void onACluster_eachCallHoldsTheKeysOfOneSlot_inTheirOrder() {
        SlotGroups groups = new SlotGroups(new LettuceConnectionFactory(
                new RedisClusterConfiguration(List.of("127.0.0.1:7000"))));

        Collection<List<String>> split = groups.split(KEYS, RedisBytes::of);

        assertThat(split).containsExactly(List.of("cim:{u:ann}:convs", "cim:{u:ann}:x"),
                List.of("cim:{u:bob}:convs", "cim:{u:bob}:y"), List.of("cim:{u:cid}:convs"));
        List<String> all = new ArrayList<>();
        for (List<String> call : split) {
            assertThat(call).extracting(key -> SlotHash.getSlot(RedisBytes.of(key))).as("one slot per call")
                    .containsOnly(SlotHash.getSlot(RedisBytes.of(call.get(0))));
            all.addAll(call);
        }
        assertThat(all).containsExactlyInAnyOrderElementsOf(KEYS);
    }
}
