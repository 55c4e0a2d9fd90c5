package dev.cim.benchmark;

import dev.cim.common.protocol.SequenceMap;
import io.netty.util.collection.LongObjectHashMap;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One message's work on the maps that hold what is outstanding by sequence number (a client's
 * requests, a server origin's unresolved messages): the oldest number is answered (removed) and the
 * next one taken (put), on one of {@link #MAPS} maps picked at random, each holding a window of
 * {@link #window} consecutive numbers, as the closed-loop load does with 1,000 clients and 20,000
 * messages in flight (20 each). {@code NETTY} is Netty's {@link LongObjectHashMap} as it is (what
 * was used before), {@code SPREAD} the same map behind {@link SequenceMap}'s spread keys.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Thread)
public class SequenceMapBenchmark {

    static final int MAPS = 1_000;

    /** Outstanding numbers per map. */
    @Param({"20", "200"})
    public int window;

    @Param({"NETTY", "SPREAD"})
    public String map;

    private Window[] windows;
    private final SplittableRandom random = new SplittableRandom(42);

    @Setup
    public void fill() {
        windows = new Window[MAPS];
        for (int i = 0; i < MAPS; i++) {
            if ("NETTY".equals(map)) {
                LongObjectHashMap<Object> values = new LongObjectHashMap<>();
                windows[i] = new Window(sequence -> values.put(sequence, Boolean.TRUE), values::remove, window);
            } else {
                SequenceMap<Object> values = new SequenceMap<>();
                windows[i] = new Window(sequence -> values.put(sequence, Boolean.TRUE), values::remove, window);
            }
        }
    }

    @Benchmark
    public void answerOldestAndSendNext() {
        windows[random.nextInt(MAPS)].slide();
    }

    /** One map's window: the numbers oldest..next-1 are in it. */
    private static final class Window {
        private final LongConsumer put;
        private final LongConsumer remove;
        private long oldest = 1;
        private long next = 1;

        Window(LongConsumer put, LongConsumer remove, int size) {
            this.put = put;
            this.remove = remove;
            while (next <= size) {
                put.accept(next++);
            }
        }

        void slide() {
            remove.accept(oldest++);
            put.accept(next++);
        }
    }
}
