package dev.cim.server.chat.fakes;

import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.server.chat.session.Connection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;

/** A connection that keeps what is written, its owner thread given by the test. */
public final class FakeConnection implements Connection {

    public final List<Envelope> written = new CopyOnWriteArrayList<>();
    private final Executor owner;
    public volatile boolean open = true;
    public volatile String closedBecause;
    public volatile int flushes;
    /** Each call to readPaused, in order. */
    public final List<Boolean> pauses = new CopyOnWriteArrayList<>();

    public FakeConnection(Executor owner) {
        this.owner = owner;
    }

    @Override
    public Executor owner() {
        return owner;
    }

    @Override
    public boolean inOwner() {
        return true;
    }

    @Override
    public void write(Envelope envelope) {
        written.add(envelope);
    }

    @Override
    public void flush() {
        flushes++;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public long pendingBytes() {
        return 0;
    }

    @Override
    public void close(ErrorReply.Code code, String reason) {
        open = false;
        closedBecause = reason;
    }

    @Override
    public void readPaused(boolean paused) {
        pauses.add(paused);
    }

    @Override
    public String remote() {
        return "test";
    }

    @Override
    public String remoteHost() {
        return "192.0.2.1";
    }

    /** The texts of the messages delivered, in the order written. */
    public List<String> texts() {
        return written.stream().filter(Envelope::hasDelivery).map(e -> e.getDelivery().getChat().getText()).toList();
    }
}
