package dev.cim.server.chat.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LazyMpscQueueTest {

    @Test
    void empty_pollsNull_andClearsWithoutMakingAQueue() {
        LazyMpscQueue<String> queue = new LazyMpscQueue<>();

        assertThat(queue.poll()).isNull();
        queue.clear();
        assertThat(queue.poll()).isNull();
    }

    @Test
    void producersRacingForTheFirstAdd_loseNothing_andEachKeepsItsOrder() throws Exception {
        int producers = 4;
        int each = 50_000;
        for (int round = 0; round < 20; round++) {
            LazyMpscQueue<long[]> queue = new LazyMpscQueue<>();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                int producer = p;
                Thread thread = new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    for (int i = 0; i < each; i++) {
                        queue.add(new long[] {producer, i});
                    }
                });
                thread.start();
                threads.add(thread);
            }
            start.countDown(); // every producer's first add races to make the queue
            long[] next = new long[producers];
            int taken = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (taken < producers * each) {
                long[] element = queue.poll();
                if (element == null) {
                    assertThat(System.nanoTime()).as("taken %d of %d within 30 s", taken, producers * each)
                            .isLessThan(deadline);
                    Thread.onSpinWait();
                    continue;
                }
                assertThat(element[1]).as("producer %d's next", element[0]).isEqualTo(next[(int) element[0]]);
                next[(int) element[0]]++;
                taken++;
            }
            for (Thread thread : threads) {
                thread.join();
            }
            assertThat(queue.poll()).isNull();
        }
    }
}
