package dev.cim.client.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.common.protocol.proto.Chat;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What arrives, shown once: across a crash of the process too. */
class InboundTest {

    @TempDir
    Path dir;

    @Test
    void aShownMessage_isRecordedBeforeTheReadEnds_soAProcessKilledMidReadDoesNotShowItAgain() {
        Path file = dir.resolve("alice.seen");
        List<String> shown = new ArrayList<>();
        Inbound inbound = new Inbound(SeenIds.file(file, 100), m -> shown.add(m.text()));

        inbound.delivered(chat("bob", "a-1", "first of a long read"));
        // The process dies here, before the read ends (no readComplete): a new one reads the file.
        Inbound restarted = new Inbound(SeenIds.file(file, 100), m -> shown.add(m.text()));
        restarted.delivered(chat("bob", "a-1", "first of a long read"));

        assertThat(shown).containsExactly("first of a long read");
        assertThat(restarted.duplicates()).isEqualTo(1);
    }

    private static Chat chat(String sender, String id, String text) {
        return Chat.newBuilder().setSender(sender).setRecipient("alice").setId(id).setText(text).build();
    }
}
