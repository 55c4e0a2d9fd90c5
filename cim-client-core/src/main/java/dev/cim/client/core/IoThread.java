package dev.cim.client.core;

import io.netty.channel.EventLoop;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The client's one I/O thread, as the rest of the client reaches it from any thread: work is run
 * there (at once when already there), and state confined to it is read through it. Once the thread
 * has stopped (the client closed), work takes its other way and reads give their default.
 */
final class IoThread {

    private final EventLoop loop;

    IoThread(EventLoop loop) {
        this.loop = loop;
    }

    EventLoop loop() {
        return loop;
    }

    /** Runs {@code task} on the I/O thread; when that thread has stopped, runs {@code ifStopped} here instead. */
    void run(Runnable ifStopped, Runnable task) {
        if (loop.inEventLoop()) {
            task.run();
            return;
        }
        try {
            loop.execute(task);
        } catch (RejectedExecutionException stopped) {
            ifStopped.run();
        }
    }

    /** Reads I/O-thread state from any thread: {@code whenStopped} when the thread has stopped or does not answer in 5 s. */
    <T> T read(Callable<T> read, T whenStopped) {
        if (loop.inEventLoop()) {
            try {
                return read.call();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        try {
            return loop.submit(read).get(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return whenStopped;
        } catch (ExecutionException | TimeoutException | RejectedExecutionException e) {
            return whenStopped;
        }
    }
}
