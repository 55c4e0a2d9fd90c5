package dev.cim.common.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.ServerNotice;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.EncoderException;
import io.netty.handler.codec.TooLongFrameException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class CimProtocolCodecTest {

    private static final int MAX = 1024;

    private final EmbeddedChannel channel = channelWithCodec(MAX);

    @AfterEach
    void closeChannel() {
        channel.finishAndReleaseAll();
    }

    static Stream<Envelope> everyKind() {
        ChatMessage plain = new ChatMessage("n1-42", "alice", "bob", "hi bob", Instant.ofEpochMilli(1_700_000_000_123L), null);
        ChatMessage delayed = new ChatMessage("n1-43", "alice", ChatMessage.EVERYONE, "later, all",
                Instant.ofEpochMilli(1_700_000_005_000L),
                new ChatMessage.Delay(Duration.ofSeconds(5), Instant.ofEpochMilli(1_700_000_004_999L)));
        return Stream.of(
                Envelopes.loginRequest(1, "alice", "s3cret"),
                Envelopes.loginAccepted(1, true, "node-a", Duration.ofSeconds(10)),
                Envelopes.loginRefused(1, "wrong password for alice"),
                Envelopes.chat(2, plain),
                Envelopes.chat(3, delayed),
                Envelopes.notice(2, ServerNotice.Kind.STORED_OFFLINE, "n1-42", "stored in bob's offline inbox", 0),
                Envelopes.error(0, ErrorReply.Code.UNKNOWN_USER, "no user named carol", false),
                Envelopes.ping(4, 123_456L),
                Envelopes.pong(Envelopes.ping(4, 123_456L), 123_460L),
                Envelopes.onlineUsersRequest(5),
                Envelopes.onlineUsersReply(5, List.of("alice", "bob")));
    }

    @ParameterizedTest
    @MethodSource("everyKind")
    void encodeThenDecode_everyKind_returnsAnEqualEnvelope(Envelope sent) {
        ByteBuf wire = encode(sent);

        assertThat(wire.getUnsignedInt(0)).isEqualTo(sent.getSerializedSize());
        channel.writeInbound(wire);

        assertThat((Envelope) channel.readInbound()).isEqualTo(sent);
        assertThat((Object) channel.readInbound()).isNull();
    }

    @Test
    void encode_writesEachFrameAsOneBufferOfExactlyItsSize() {
        Envelope sent = Envelopes.ping(7, 42L);
        EmbeddedChannel encoder = channelWithCodec(MAX);

        encoder.writeOutbound(sent, sent);

        for (int i = 0; i < 2; i++) {
            ByteBuf frame = encoder.readOutbound();
            assertThat(frame.readableBytes()).isEqualTo(CimProtocolCodec.LENGTH_FIELD_LENGTH + sent.getSerializedSize());
            assertThat(frame.capacity()).isEqualTo(frame.readableBytes());
            frame.release();
        }
        assertThat((Object) encoder.readOutbound()).isNull();
        encoder.finishAndReleaseAll();
    }

    @Test
    void decode_chatMessage_convertsBackToTheSameRecord() {
        ChatMessage message = new ChatMessage("id-1", "alice", "bob", "hello", Instant.ofEpochMilli(5),
                new ChatMessage.Delay(Duration.ofMillis(1500), Instant.ofEpochMilli(4)));
        channel.writeInbound(encode(Envelopes.chat(7, message)));

        Envelope received = channel.readInbound();
        assertThat(ChatMessage.fromProto(received.getChat())).isEqualTo(message);
    }

    @Test
    void decode_frameSplitOverManyReads_yieldsOneEnvelopeAtTheEnd() {
        Envelope sent = Envelopes.loginRequest(9, "alice", "pw");
        ByteBuf wire = encode(sent);

        while (wire.readableBytes() > 1) {
            assertThat(channel.writeInbound(wire.readRetainedSlice(1))).isFalse();
        }
        assertThat(channel.writeInbound(wire.readRetainedSlice(1))).isTrue();
        wire.release();

        assertThat((Envelope) channel.readInbound()).isEqualTo(sent);
    }

    @Test
    void decode_twoFramesInOneRead_yieldsBothInOrder() {
        Envelope first = Envelopes.ping(1, 10);
        Envelope second = Envelopes.ping(2, 20);

        channel.writeInbound(Unpooled.wrappedBuffer(encode(first), encode(second)));

        assertThat((Envelope) channel.readInbound()).isEqualTo(first);
        assertThat((Envelope) channel.readInbound()).isEqualTo(second);
    }

    @Test
    void decode_lengthOverTheMaximum_failsFastWithTooLongFrame() {
        ByteBuf header = Unpooled.buffer().writeInt(MAX); // 4 + MAX bytes in all: one too many

        assertThatThrownBy(() -> channel.writeInbound(header))
                .isInstanceOf(TooLongFrameException.class)
                .hasMessageContaining(String.valueOf(MAX));
    }

    @Test
    void decode_afterAnOversizedFrameIsSkipped_decodesTheNextFrame() {
        ByteBuf oversized = Unpooled.buffer().writeInt(MAX).writeZero(MAX);
        assertThatThrownBy(() -> channel.writeInbound(oversized)).isInstanceOf(TooLongFrameException.class);

        Envelope next = Envelopes.ping(3, 30);
        channel.writeInbound(encode(next));

        assertThat((Envelope) channel.readInbound()).isEqualTo(next);
    }

    @Test
    void decode_frameOfExactlyTheMaximum_isAccepted() {
        String filler = "x".repeat(MAX - 4 - 16);
        Envelope big = Envelopes.loginRequest(0, "alice", filler);
        int padding = MAX - 4 - big.getSerializedSize();
        big = Envelopes.loginRequest(0, "alice", filler + "y".repeat(padding));
        assertThat(big.getSerializedSize() + 4).isEqualTo(MAX);

        channel.writeInbound(encode(big));

        assertThat((Envelope) channel.readInbound()).isEqualTo(big);
    }

    @Test
    void decode_garbagePayload_failsWithCorruptedFrame() {
        ByteBuf garbage = Unpooled.buffer().writeInt(6).writeBytes(new byte[] {-1, -1, -1, -1, -1, -1});

        assertThatThrownBy(() -> channel.writeInbound(garbage))
                .isInstanceOf(CorruptedFrameException.class)
                .hasMessageContaining("not a cim Envelope");
    }

    @Test
    void decode_envelopeOfAnotherVersion_failsWithUnsupportedVersion() {
        Envelope future = Envelopes.ping(1, 1).toBuilder().setVersion(2).build();

        assertThatThrownBy(() -> channel.writeInbound(encode(future)))
                .isInstanceOfSatisfying(UnsupportedVersionException.class, e -> assertThat(e.version()).isEqualTo(2))
                .hasMessageContaining("expected: 1");
    }

    @Test
    void decode_envelopeWithoutVersion_failsWithUnsupportedVersionZero() {
        Envelope unversioned = Envelopes.ping(1, 1).toBuilder().clearVersion().build();

        assertThatThrownBy(() -> channel.writeInbound(encode(unversioned)))
                .isInstanceOfSatisfying(UnsupportedVersionException.class, e -> assertThat(e.version()).isZero());
    }

    @Test
    void decode_envelopeWithoutKind_failsWithCorruptedFrame() {
        Envelope empty = Envelopes.builder(1).build();

        assertThatThrownBy(() -> channel.writeInbound(encode(empty)))
                .isInstanceOf(CorruptedFrameException.class)
                .hasMessageContaining("no message kind");
    }

    @Test
    void encode_envelopeLongerThanTheMaximum_failsTheWriteAndSendsNothing() {
        Envelope tooBig = Envelopes.loginRequest(0, "alice", "x".repeat(MAX));

        ChannelFuture write = channel.writeOneOutbound(tooBig);
        channel.flushOutbound();

        assertThat(write.cause()).isInstanceOf(EncoderException.class).hasCauseInstanceOf(TooLongFrameException.class);
        assertThat((Object) channel.readOutbound()).isNull();
    }

    @Test
    void constructor_maximumOutOfRange_isRefusedWithTheExpectedRange() {
        assertThatIllegalArgumentException().isThrownBy(() -> new CimProtocolCodec(10))
                .withMessageContaining("expected: 256 <= maxFrameLength <= 16777216");
        assertThatIllegalArgumentException().isThrownBy(() -> new CimProtocolCodec(Integer.MAX_VALUE));
    }

    private static ByteBuf encode(Envelope envelope) {
        EmbeddedChannel encoder = channelWithCodec(MAX);
        encoder.writeOutbound(envelope);
        ByteBuf out = Unpooled.buffer();
        for (ByteBuf part; (part = encoder.readOutbound()) != null; ) {
            out.writeBytes(part);
            part.release();
        }
        encoder.finishAndReleaseAll();
        return out;
    }

    private static EmbeddedChannel channelWithCodec(int max) {
        EmbeddedChannel ch = new EmbeddedChannel();
        new CimProtocolCodec(max).install(ch.pipeline());
        return ch;
    }
}
