package dev.cim.common.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cim.common.protocol.proto.Chat;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.LoginResult;
import dev.cim.common.protocol.proto.Receipt;
import dev.cim.common.protocol.proto.Scheduled;
import dev.cim.common.protocol.proto.ScheduledChange;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.EncoderException;
import io.netty.handler.codec.TooLongFrameException;
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

    private static final Chat PLAIN = Chat.newBuilder().setId("00000000000000a1-42").setSender("alice")
            .setRecipient("bob").setText("hi bob").setSentAtMillis(1_700_000_000_123L).build();
    private static final Chat DELAYED = PLAIN.toBuilder().setId("00000000000000a1-43").setRecipient(ChatRules.EVERYONE)
            .setDelay(Chat.Delay.newBuilder().setRequestedMillis(5000).setDueAtMillis(1_700_000_004_999L)
                    .setFiredByServer(true))
            .build();
    private static final Scheduled SCHEDULED = Scheduled.newBuilder().setId("00000000000000a1-44").setNumber(7)
            .setRecipient("bob").setText("later").setDueAtMillis(1_800_000_000_000L).setRequestedMillis(60_000)
            .build();

    static Stream<Envelope> everyKind() {
        return Stream.of(
                Envelopes.login("alice", "s3cret", "", 0xa1L),
                Envelopes.login("alice", "", "token-123", 0xa1L),
                Envelopes.loginAccepted(LoginResult.newBuilder().setAccountCreated(true).setNodeId("node-a")
                        .setHeartbeatIntervalMillis(10_000).setSessionToken("t").setMaxTextLength(4000)
                        .addNodes("127.0.0.1:9000")),
                Envelopes.loginRefused("wrong password for alice"),
                Envelopes.send(42, "bob", "hi bob"),
                Envelopes.receipt(42, Receipt.Outcome.STORED, PLAIN.getId(), 0, "bob", false),
                Envelopes.delivery(PLAIN),
                Envelopes.delivery(DELAYED),
                Envelopes.ack(17),
                Envelopes.error(0, ErrorReply.Code.UNKNOWN_USER, "no user named carol", false),
                Envelopes.rateLimited(9, "too many messages", 250),
                Envelopes.ping(123_456L),
                Envelopes.pong(Envelopes.ping(123_456L), 123_460L),
                Envelopes.onlineUsersRequest(5),
                Envelopes.onlineUsersReply(5, List.of("alice", "bob"), false, 2),
                Envelopes.schedule(44, "bob", "later", 1_800_000_000_000L, 60_000),
                Envelopes.edit(45, SCHEDULED.getId(), "sooner", 0, 0),
                Envelopes.cancel(46, SCHEDULED.getId()),
                Envelopes.release(47, SCHEDULED.getId()),
                Envelopes.listScheduled(48, 0),
                Envelopes.scheduledChange(44, ScheduledChange.Kind.SCHEDULED, SCHEDULED),
                Envelopes.scheduledList(48, List.of(SCHEDULED), true, 3),
                Envelopes.goAway("the server is shutting down", List.of("127.0.0.1:9001"), 5000));
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
    void encode_framesWrittenTogether_leaveBackToBackInOneBuffer() {
        Envelope ping = Envelopes.ping(42L);
        Envelope ack = Envelopes.ack(7);
        EmbeddedChannel encoder = channelWithCodec(MAX);

        encoder.writeOutbound(ping, ack);

        ByteBuf frames = encoder.readOutbound();
        assertThat(frames.readInt()).isEqualTo(ping.getSerializedSize());
        frames.skipBytes(ping.getSerializedSize());
        assertThat(frames.readInt()).isEqualTo(ack.getSerializedSize());
        frames.skipBytes(ack.getSerializedSize());
        assertThat(frames.isReadable()).as("nothing after the two frames").isFalse();
        frames.release();
        assertThat((Object) encoder.readOutbound()).isNull();
        encoder.finishAndReleaseAll();
    }

    @Test
    void decode_frameSplitOverManyReads_yieldsOneEnvelopeAtTheEnd() {
        Envelope sent = Envelopes.login("alice", "pw", "", 1);
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
        Envelope first = Envelopes.ping(10);
        Envelope second = Envelopes.ping(20);

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

        Envelope next = Envelopes.ping(30);
        channel.writeInbound(encode(next));

        assertThat((Envelope) channel.readInbound()).isEqualTo(next);
    }

    @Test
    void decode_frameOfExactlyTheMaximum_isAccepted() {
        String filler = "x".repeat(MAX - 4 - 40);
        Envelope big = Envelopes.login("alice", filler, "", 1);
        int padding = MAX - 4 - big.getSerializedSize();
        big = Envelopes.login("alice", filler + "y".repeat(padding), "", 1);
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
        int next = Envelopes.PROTOCOL_VERSION + 1;
        Envelope future = Envelopes.ping(1).toBuilder().setVersion(next).build();

        assertThatThrownBy(() -> channel.writeInbound(encode(future)))
                .isInstanceOfSatisfying(UnsupportedVersionException.class, e -> assertThat(e.version()).isEqualTo(next))
                .hasMessageContaining("expected: " + Envelopes.PROTOCOL_VERSION);
    }

    @Test
    void decode_envelopeWithoutVersion_failsWithUnsupportedVersionZero() {
        Envelope unversioned = Envelopes.ping(1).toBuilder().clearVersion().build();

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
        Envelope tooBig = Envelopes.login("alice", "x".repeat(MAX), "", 1);

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
