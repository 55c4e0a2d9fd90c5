package dev.cim.server.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verifyNoInteractions;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.server.chat.ChatService;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.ImmediateEventExecutor;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The whole pipeline of an accepted connection, on an {@link EmbeddedChannel}: what a stranger's
 * bytes get before any login.
 */
class CimServerInitializerTest {

    private static final int MAX_LOGIN_FRAME = 1024;

    private final ChatService chat = mock(ChatService.class);
    private final NodeCapacity capacity = new NodeCapacity(2, "node-a", () -> List.of("127.0.0.1:9002", "127.0.0.1:9003"));
    private final EmbeddedChannel channel = connection();

    private EmbeddedChannel connection() {
        return new EmbeddedChannel(new CimServerInitializer(chat, new DefaultChannelGroup(ImmediateEventExecutor.INSTANCE),
                new CimServer.Settings("127.0.0.1", 0, 1, false, 64 * 1024, MAX_LOGIN_FRAME, Duration.ofSeconds(30),
                        Duration.ofSeconds(10), 40, 3, 2, Duration.ofSeconds(1), Duration.ofSeconds(1), null, false,
                        CimServer.Web.NONE), capacity));
    }

    private static ByteBuf frame(Envelope envelope) {
        byte[] bytes = envelope.toByteArray();
        return Unpooled.buffer().writeInt(bytes.length).writeBytes(bytes);
    }

    @AfterEach
    void release() {
        channel.finishAndReleaseAll();
    }

    @Test
    void loginOnAFullNode_getsAGoAwayNamingTheOtherNodes_beforeItsPasswordIsChecked() {
        assertThat(capacity.take()).isTrue();
        assertThat(capacity.take()).isTrue();

        channel.writeInbound(frame(Envelopes.login("carol", "password", "", 1)));

        verifyNoInteractions(chat);
        assertThat(WrittenFrames.take(channel)).singleElement().satisfies(frame -> {
            assertThat(frame.getGoAway().getNodesList()).containsExactlyInAnyOrder("127.0.0.1:9002", "127.0.0.1:9003");
            assertThat(frame.getGoAway().getSpreadMillis()).isEqualTo(NodeCapacity.SPREAD_TO_OTHERS.toMillis());
            assertThat(frame.getGoAway().getReason())
                    .isEqualTo("the server node node-a is full (2 connections, cim.server.limits.max-connections)");
        });
        assertThat(channel.isOpen()).isFalse();
        assertThat(capacity.taken()).as("the refused login took no place").isEqualTo(2);
    }

    @Test
    void aLoginsPlace_isTakenBeforeItsAnswer_andGivenBackWhenItsConnectionCloses() {
        EmbeddedChannel other = connection();
        channel.writeInbound(frame(Envelopes.login("alice", "password", "", 1)));
        other.writeInbound(frame(Envelopes.login("bob", "password", "", 2)));
        assertThat(capacity.taken()).isEqualTo(2);

        channel.close();
        assertThat(capacity.taken()).isEqualTo(1);
        other.finishAndReleaseAll();
        assertThat(capacity.taken()).isZero();
    }

    /**
     * A socket's read loop hands a large frame over in several reads within one pass of the event
     * loop, and the closing error is flushed only at the end of the pass: the reads after the first
     * must neither be taken for frames nor refused again.
     */
    @Test
    void oversizedFirstFrame_readInSeveralPartsInOnePass_getsOneErrorFrameAndTheClose() {
        ByteBuf frame = Unpooled.buffer().writeInt(100 * 1024);
        for (int i = 0; i < 100 * 1024; i++) {
            frame.writeByte(i);
        }

        channel.writeInbound(frame.retainedSlice(0, 2048), frame.retainedSlice(2048, 32 * 1024),
                frame.retainedSlice(2048 + 32 * 1024, frame.readableBytes() - 2048 - 32 * 1024));
        frame.release();

        List<Envelope> written = WrittenFrames.take(channel);
        assertThat(written).hasSize(1);
        assertThat(written.get(0).getError().getCode()).isEqualTo(ErrorReply.Code.FRAME_TOO_LONG);
        assertThat(written.get(0).getError().getMessage())
                .isEqualTo("the first frame is 102404 bytes (expected: a login of at most 1024 bytes)");
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void oversizedFirstFrame_aLoginInTheRestOfItsBytes_isNotRead() {
        byte[] login = Envelopes.login("mallory", "password", "", 1).toByteArray();
        ByteBuf tail = Unpooled.buffer().writeInt(login.length).writeBytes(login);
        ByteBuf head = Unpooled.buffer().writeInt(MAX_LOGIN_FRAME).writeZero(MAX_LOGIN_FRAME - tail.readableBytes());

        channel.writeInbound(head, tail);

        verifyNoInteractions(chat);
        assertThat(channel.config().isAutoRead()).as("reading stopped").isFalse();
        assertThat(WrittenFrames.take(channel)).singleElement()
                .satisfies(error -> assertThat(error.getError().getCode()).isEqualTo(ErrorReply.Code.FRAME_TOO_LONG));
    }

    @Test
    void framesBeforeLogin_severalInOneRead_getOneErrorFrameAndTheClose() {
        ByteBuf pings = Unpooled.buffer();
        for (int i = 0; i < 3; i++) {
            byte[] ping = Envelopes.ping(i).toByteArray();
            pings.writeInt(ping.length).writeBytes(ping);
        }

        channel.writeInbound(pings);

        List<Envelope> written = WrittenFrames.take(channel);
        assertThat(written).hasSize(1);
        assertThat(written.get(0).getError().getCode()).isEqualTo(ErrorReply.Code.NOT_LOGGED_IN);
        assertThat(written.get(0).getError().getMessage()).startsWith("PING before login (expected: one LOGIN first");
        assertThat(channel.isOpen()).isFalse();
    }
}
