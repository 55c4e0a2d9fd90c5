package dev.cim.server.net;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.common.protocol.CimProtocolCodec;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The login and idle deadlines on an {@link EmbeddedChannel} whose time stands still until the test
 * moves it, as Netty tests its {@code IdleStateHandler}: the handler reads the time of its event
 * loop, so no test waits. (SecurityIntegrationTest and ChatIntegrationTest check the same deadlines
 * over real sockets.)
 */
class ReadDeadlineTest {

    private static final Duration IDLE = Duration.ofSeconds(30);
    private static final Duration LOGIN = Duration.ofSeconds(10);
    private static final Duration NANO = Duration.ofNanos(1);
    private static final Duration GRID = ReadDeadline.grid(IDLE);

    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final ReadDeadline deadline = new ReadDeadline(IDLE, LOGIN);

    ReadDeadlineTest() {
        channel.freezeTime();
        new CimProtocolCodec().install(channel.pipeline());
        channel.pipeline().addLast("deadline", deadline); // accepted now: the deadlines count from here
    }

    @AfterEach
    void release() {
        channel.finishAndReleaseAll();
    }

    @Test
    void loginDeadline_passesWithoutALogin_closesWithTheReason() {
        closesAfter(LOGIN);

        assertClosingError("not logged in within 10000 ms of connecting (expected: a Login first)");
    }

    @Test
    void loginDeadline_framesBeforeTheLogin_doNotExtendIt() {
        for (int second = 1; second < LOGIN.toSeconds(); second++) {
            advance(Duration.ofSeconds(1));
            receive(Envelopes.ping(second));
        }

        closesAfter(Duration.ofSeconds(1));

        assertClosingError("not logged in within 10000 ms of connecting (expected: a Login first)");
    }

    @Test
    void loginDeadline_loggedInInTime_passesWithoutAClose() {
        advance(LOGIN.minus(NANO));
        loggedIn();

        advance(IDLE.minus(LOGIN));

        assertThat(channel.isOpen()).isTrue();
        assertThat(WrittenFrames.take(channel)).isEmpty();
    }

    @Test
    void idleDeadline_silentAfterLogin_closesWithTheReason() {
        loggedIn();

        closesAfter(IDLE);

        assertClosingError("sent nothing for 30000 ms (expected: a ping at least every 15000 ms)");
    }

    @Test
    void idleDeadline_aFrameAfterLogin_extendsItByTheIdleTimeoutFromThatFrame() {
        loggedIn();
        advance(Duration.ofSeconds(20));
        receive(Envelopes.ping(1));

        closesAfter(IDLE); // at 50 s, not 30 s
    }

    @Test
    void idleDeadline_partOfAFrame_doesNotExtendIt() {
        loggedIn();
        advance(Duration.ofSeconds(20));
        byte[] ping = Envelopes.ping(1).toByteArray();
        channel.writeInbound(Unpooled.buffer().writeInt(ping.length).writeBytes(ping, 0, ping.length - 1));

        advance(IDLE.minus(Duration.ofSeconds(20)).plus(GRID));

        assertThat(channel.isOpen()).as("only whole frames count").isFalse();
    }

    @Test
    void idleDeadline_whileTheServerPausedReading_waits_thenCountsFromTheResume() {
        loggedIn();
        advance(Duration.ofSeconds(5));
        deadline.readingPaused(true);

        advance(IDLE.multipliedBy(3));
        assertThat(channel.isOpen()).as("the silence is the server's doing").isTrue();
        deadline.readingPaused(false);

        closesAfter(IDLE);
    }

    @Test
    void idleDeadline_countsFromTheLogin_notWhileTheClientWaitsForItsAnswer() {
        EmbeddedChannel slowLogin = new EmbeddedChannel();
        try {
            slowLogin.freezeTime();
            Duration idle = Duration.ofSeconds(2);
            slowLogin.pipeline().addLast(new ReadDeadline(idle, LOGIN));
            slowLogin.advanceTimeBy(LOGIN.minus(NANO).toNanos(), TimeUnit.NANOSECONDS); // the server checks the password
            slowLogin.runScheduledPendingTasks();
            assertThat(slowLogin.isOpen()).as("silent for longer than the idle timeout, waiting for its answer").isTrue();

            slowLogin.pipeline().fireUserEventTriggered(LoggedIn.INSTANCE);
            slowLogin.advanceTimeBy(idle.minus(NANO).toNanos(), TimeUnit.NANOSECONDS);
            slowLogin.runScheduledPendingTasks();
            assertThat(slowLogin.isOpen()).as("1 ns before the idle timeout after the login").isTrue();
            slowLogin.advanceTimeBy(ReadDeadline.grid(idle).toNanos(), TimeUnit.NANOSECONDS);
            slowLogin.runScheduledPendingTasks();
            assertThat(slowLogin.isOpen()).as("silent for the idle timeout after the login").isFalse();
        } finally {
            slowLogin.finishAndReleaseAll();
        }
    }

    @Test
    void idleDeadline_aPeerThatReadsNothing_isClosedWithoutAnErrorFrameItWouldNotRead() {
        loggedIn();
        channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(8, 16));
        channel.write(Unpooled.buffer().writeZero(32)); // not flushed: stuck, as if the peer read nothing
        assertThat(channel.isWritable()).isFalse();

        advance(IDLE.plus(GRID));

        assertThat(channel.isOpen()).isFalse();
        ByteBuf flushedByTheClose = channel.readOutbound();
        assertThat(flushedByTheClose.readableBytes()).as("the stuck bytes").isEqualTo(32);
        flushedByTheClose.release();
        assertThat(channel.outboundMessages()).as("no error frame after them").isEmpty();
    }

    /**
     * A check runs at the first point of the grid at or after its deadline, to the nanosecond: the
     * checks of connections whose deadlines fall within one step run at the same instant.
     */
    @Test
    void idleCheck_runsAtTheFirstPointOfTheGridAtOrAfterTheDeadline() {
        assertThat(GRID).isEqualTo(Duration.ofMillis(937).plusNanos(500_000));
        advance(Duration.ofMillis(123)); // somewhere between two points of the grid
        loggedIn();
        long deadline = now() + IDLE.toNanos();
        long onGrid = Math.floorDiv(deadline + GRID.toNanos() - 1, GRID.toNanos()) * GRID.toNanos();
        assertThat(onGrid - deadline).isPositive().isLessThan(GRID.toNanos());

        advance(Duration.ofNanos(onGrid - 1 - now()));
        assertThat(channel.isOpen()).as("1 ns before that point, past the deadline").isTrue();
        advance(NANO);
        assertThat(channel.isOpen()).as("at that point").isFalse();
    }

    private long now() {
        return channel.eventLoop().ticker().nanoTime();
    }

    private void loggedIn() {
        channel.pipeline().fireUserEventTriggered(LoggedIn.INSTANCE);
    }

    private void receive(Envelope frame) {
        byte[] payload = frame.toByteArray();
        ByteBuf bytes = Unpooled.buffer().writeInt(payload.length).writeBytes(payload);
        channel.writeInbound(bytes);
        List<Object> passed = List.of(channel.inboundMessages().toArray());
        channel.inboundMessages().clear();
        assertThat(passed).as("passed on").containsExactly(frame);
    }

    /**
     * Open until {@code left} has passed, to the nanosecond; closed by the next point of the grid
     * (the test below checks that point exactly).
     */
    private void closesAfter(Duration left) {
        advance(left.minus(NANO));
        assertThat(channel.isOpen()).as("open 1 ns before the deadline").isTrue();
        advance(GRID);
        assertThat(channel.isOpen()).as("closed within a step of the grid after the deadline").isFalse();
    }

    private void assertClosingError(String message) {
        assertThat(WrittenFrames.take(channel)).singleElement().satisfies(frame -> {
            assertThat(frame.getError().getCode()).isEqualTo(ErrorReply.Code.IDLE_TIMEOUT);
            assertThat(frame.getError().getMessage()).isEqualTo(message);
            assertThat(frame.getError().getClosing()).isTrue();
        });
    }

    /** Moves the channel's time on, then runs what came due and the flushes that left for later. */
    private void advance(Duration duration) {
        channel.advanceTimeBy(duration.toNanos(), TimeUnit.NANOSECONDS);
        channel.runScheduledPendingTasks();
        channel.runPendingTasks();
    }
}
