package dev.cim.server.net;

import dev.cim.common.protocol.CimProtocolCodec;
import dev.cim.common.protocol.proto.Envelope;
import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * What a server-side {@link EmbeddedChannel} has written, read back as a client reads it: frame by
 * frame, however the server batched them into buffers (several frames of one pass leave in one).
 */
final class WrittenFrames {

    private WrittenFrames() {
    }

    /** Takes everything {@code server} wrote so far and decodes it into Envelopes. */
    static List<Envelope> take(EmbeddedChannel server) {
        EmbeddedChannel client = new EmbeddedChannel();
        new CimProtocolCodec(CimProtocolCodec.MAX_MAX_FRAME_LENGTH).install(client.pipeline());
        for (Object written; (written = server.readOutbound()) != null; ) {
            client.writeInbound((ByteBuf) written);
        }
        List<Envelope> frames = new ArrayList<>();
        for (Envelope frame; (frame = client.readInbound()) != null; ) {
            frames.add(frame);
        }
        client.finishAndReleaseAll();
        return frames;
    }
}
