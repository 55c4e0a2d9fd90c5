package dev.cim.benchmark;

import java.util.concurrent.ThreadFactory;

/**
 * A thread factory for the timers that take one (Netty's wheel, the executor), which remembers the
 * single thread it made so its CPU time can be read. Threads are daemons.
 */
final class RecordingThreadFactory implements ThreadFactory {

    private final String name;
    private volatile Thread thread;

    RecordingThreadFactory(String name) {
        this.name = name;
    }

    @Override
    public Thread newThread(Runnable runnable) {
        if (thread != null) {
            throw new IllegalStateException(name + ": expected the timer to make exactly one thread");
        }
        Thread made = new Thread(runnable, name);
        made.setDaemon(true);
        thread = made;
        return made;
    }

    /** The thread made, or an exception if the timer has made none yet. */
    Thread thread() {
        Thread made = thread;
        if (made == null) {
            throw new IllegalStateException(name + ": the timer has not made its thread yet");
        }
        return made;
    }
}
