package dev.cim.server.chat;

import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;

/** A connection that keeps what is written, its owner thread given by the test. */
final class FakeConnection implements Connection {

    final List<Envelope> written = new CopyOnWriteArrayList<>();
    private final Executor owner;
    volatile boolean open = true;
    volatile String closedBecause;
    volatile int flushes;
    /** Each call to readPaused, in order. */
    final List<Boolean> pauses = new CopyOnWriteArrayList<>();

    FakeConnection(Executor owner) {
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
    List<String> texts() {
        return written.stream().filter(Envelope::hasDelivery).map(e -> e.getDelivery().getChat().getText()).toList();
    }
}
