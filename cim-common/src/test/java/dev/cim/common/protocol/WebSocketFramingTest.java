package dev.cim.common.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.common.protocol.proto.Envelope;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelFuture;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.EncoderException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocket08FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What {@link WebSocketFraming} writes, read back by Netty's own WebSocket frame decoder: a server's
 * (which refuses unmasked frames) for a client's frames, a client's for a server's.
 */
class WebSocketFramingTest {

    private static final int MAX = 1 << 20;

    /** Text lengths giving payloads in each of the three length forms, and with 0 to 3 bytes past a multiple of 4. */
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 100, 130, 65_000, 65_600, 200_001})
    void binary_maskedByAClient_readByAServer(int textLength) {
        Envelope envelope = Envelopes.send(textLength, "bob", "x".repeat(textLength));

        List<WebSocketFrame> frames = roundTrip(WebSocketFraming.binary(true), true, envelope);

        assertThat(frames).singleElement().isInstanceOf(BinaryWebSocketFrame.class);
        assertThat(parse(frames.get(0))).isEqualTo(envelope);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 3, 130, 70_000})
    void binary_unmaskedByAServer_readByAClient(int textLength) {
        Envelope envelope = Envelopes.send(7, "bob", "y".repeat(textLength));
        EmbeddedChannel encoder = encoder(WebSocketFraming.binary(false), MAX);
        encoder.writeAndFlush(envelope);
        encoder.runPendingTasks();
        ByteBuf wire = encoder.readOutbound();

        assertThat(wire.getByte(1) & 0x80).as("mask bit").isZero();
        List<WebSocketFrame> frames = decode(wire, false);
        assertThat(frames).singleElement().isInstanceOf(BinaryWebSocketFrame.class);
        assertThat(parse(frames.get(0))).isEqualTo(envelope);
    }

    @Test
    void text_writesTheTextFormAsUtf8() {
        Envelope envelope = Envelopes.send(1, "bob", "héllo ✓");
        WebSocketFraming framing = WebSocketFraming.text(e -> "{\"text\":\"" + e.getSend().getText() + "\"}", false);

        List<WebSocketFrame> frames = roundTrip(framing, false, envelope);

        assertThat(frames).singleElement().isInstanceOfSatisfying(TextWebSocketFrame.class,
                frame -> assertThat(frame.text()).isEqualTo("{\"text\":\"héllo ✓\"}"));
    }

    @Test
    void framesOfOnePass_oneBuffer_eachItsOwnMaskingKey() {
        Envelope envelope = Envelopes.send(3, "bob", "same text");
        EmbeddedChannel encoder = encoder(WebSocketFraming.binary(true), MAX);
        encoder.write(envelope);
        encoder.write(envelope);
        encoder.writeAndFlush(envelope);
        encoder.runPendingTasks();

        ByteBuf wire = encoder.readOutbound();
        assertThat((Object) encoder.readOutbound()).as("one buffer for the pass").isNull();
        int frameLength = wire.readableBytes() / 3;
        assertThat(ByteBufUtil.equals(wire, 0, wire, frameLength, frameLength))
                .as("two masked frames of the same envelope differ").isFalse();
        List<WebSocketFrame> frames = decode(wire, true);
        assertThat(frames).hasSize(3).allSatisfy(frame -> assertThat(parse(frame)).isEqualTo(envelope));
    }

    @Test
    void payloadOverTheMaximum_failsTheWrite_sendsNothing() {
        EmbeddedChannel encoder = encoder(WebSocketFraming.binary(true), 50);

        ChannelFuture write = encoder.writeAndFlush(Envelopes.send(1, "bob", "z".repeat(60)));
        encoder.runPendingTasks();

        assertThat(write.cause()).isInstanceOf(EncoderException.class).cause()
                .isInstanceOf(TooLongFrameException.class).hasMessageContaining("exceeds the maximum payload of 50 bytes");
        assertThat((Object) encoder.readOutbound()).isNull();
    }

    private static List<WebSocketFrame> roundTrip(WebSocketFraming framing, boolean masked, Envelope envelope) {
        EmbeddedChannel encoder = encoder(framing, MAX);
        encoder.writeAndFlush(envelope);
        encoder.runPendingTasks();
        return decode(encoder.readOutbound(), masked);
    }

    private static EmbeddedChannel encoder(WebSocketFraming framing, int maxPayload) {
        return new EmbeddedChannel(new EnvelopeEncoder(maxPayload, framing));
    }

    /** Netty's decoder: a server's expects masked frames, a client's unmasked ones. */
    private static List<WebSocketFrame> decode(ByteBuf wire, boolean expectMasked) {
        EmbeddedChannel decoder = new EmbeddedChannel(new WebSocket08FrameDecoder(WebSocketDecoderConfig.newBuilder()
                .expectMaskedFrames(expectMasked).allowMaskMismatch(false).maxFramePayloadLength(MAX).build()));
        decoder.writeInbound(wire);
        List<WebSocketFrame> frames = new ArrayList<>();
        for (Object frame; (frame = decoder.readInbound()) != null; ) {
            frames.add((WebSocketFrame) frame);
        }
        return frames;
    }

    private static Envelope parse(WebSocketFrame frame) {
        try {
            return Envelope.parseFrom(ByteBufUtil.getBytes(frame.content()));
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new AssertionError(e);
        }
    }
}
