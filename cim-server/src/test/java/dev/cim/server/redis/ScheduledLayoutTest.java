package dev.cim.server.redis;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Descriptors.FieldDescriptor;
import dev.cim.common.protocol.proto.Scheduled;
import dev.cim.common.protocol.proto.Timing;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class ScheduledLayoutTest {

    private static final Scheduled MESSAGE = Scheduled.newBuilder().setId("00000000000000a1-9").setNumber(300)
            .setRecipient("bob").setText("call me").setDueAtMillis(1_800_000_000_000L).setRequestedMillis(60_000)
            .setTiming(Timing.newBuilder().setEvery("weekday 9:00").setZone("Europe/Berlin").setTimes(5)
                    .setDropLateAfterMillis(600_000))
            .setOccurrence(2).setSeriesStartMillis(1_799_000_000_000L).build();

    @Test
    void everyFieldOfScheduled_isKnownToTheLayout() {
        // draft() and numbered() copy the fields one by one: a new field must be added to them.
        assertThat(Scheduled.getDescriptor().getFields()).extracting(FieldDescriptor::getName)
                .containsExactly("id", "number", "recipient", "text", "due_at_millis", "requested_millis", "timing",
                        "occurrence", "series_start_millis", "recipient_zone");
    }

    @Test
    void aDraftWithTheNumberInFront_readsBackAsTheMessage() {
        Scheduled draft = MESSAGE.toBuilder().clearNumber().build();
        byte[] body = ScheduledLayout.draft(draft);
        // What the register script does: protobuf field 2 as a varint (300 = 0xac 0x02), then the draft.
        byte[] stored = ByteBuffer.allocate(3 + body.length).put((byte) 0x10).put((byte) 0xac).put((byte) 0x02)
                .put(body).array();

        assertThat(ScheduledLayout.parse(stored, MESSAGE.getId(), MESSAGE.getDueAtMillis())).isEqualTo(MESSAGE);
        assertThat(ScheduledLayout.body(MESSAGE)).isEqualTo(stored);
        assertThat(ScheduledLayout.numbered(draft, 300)).isEqualTo(MESSAGE);
    }
}
