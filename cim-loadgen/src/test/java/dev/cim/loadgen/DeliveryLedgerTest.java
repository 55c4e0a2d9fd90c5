package dev.cim.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DeliveryLedgerTest {

    @Test
    void everyIssuedNumberReceivedOnce_isNeitherLostNorDuplicated() {
        DeliveryLedger ledger = new DeliveryLedger(10);
        for (int i = 0; i < 10; i++) {
            assertThat(ledger.receive(ledger.issue())).isTrue();
        }

        assertThat(ledger.lost()).isZero();
        assertThat(ledger.duplicates()).isZero();
        assertThat(ledger.received()).isEqualTo(10);
    }

    @Test
    void aNumberReceivedTwice_isOneDuplicate_andANumberNeverIssuedIsUnknown() {
        DeliveryLedger ledger = new DeliveryLedger(4);
        long seq = ledger.issue();
        ledger.issue();

        assertThat(ledger.receive(seq)).isTrue();
        assertThat(ledger.receive(seq)).isFalse();
        assertThat(ledger.receive(2)).isFalse();
        assertThat(ledger.receive(-1)).isFalse();

        assertThat(ledger.duplicates()).isEqualTo(1);
        assertThat(ledger.unknown()).isEqualTo(2);
        assertThat(ledger.lost()).isEqualTo(1);
    }

    @Test
    void issueOfABlock_givesConsecutiveNumbersAfterThoseBefore_andRefusesAnEmptyBlock() {
        DeliveryLedger ledger = new DeliveryLedger(16);
        ledger.issue();

        assertThat(ledger.issue(5)).isEqualTo(1);
        assertThat(ledger.issue()).isEqualTo(6);
        assertThat(ledger.issued()).isEqualTo(7);
        assertThat(ledger.lost()).isEqualTo(7);
        assertThatIllegalArgumentException().isThrownBy(() -> ledger.issue(0)).withMessage("count: 0 (expected: >= 1)");
    }

    @Test
    void randomIssuesAndReceipts_countAsASetOfReceivedNumbersWould() {
        Random random = new Random(20261122);
        // Fewer chunks made up front than used: later ones are made on first use.
        DeliveryLedger ledger = new DeliveryLedger(1);
        Set<Long> model = new HashSet<>();
        long issued = 0;
        long duplicates = 0;
        long unknown = 0;
        for (int op = 0; op < 200_000; op++) {
            if (random.nextInt(3) == 0) {
                int n = random.nextInt(100);
                for (int i = 0; i < n; i++) {
                    assertThat(ledger.issue()).isEqualTo(issued++);
                }
                continue;
            }
            // Mostly issued numbers, some twice, some never issued or negative.
            long seq = random.nextInt(10) == 0 ? issued + random.nextInt(5) - 2 : (long) (random.nextDouble() * issued);
            boolean first = ledger.receive(seq);
            if (seq < 0 || seq >= issued) {
                unknown++;
                assertThat(first).isFalse();
            } else if (model.add(seq)) {
                assertThat(first).as("first receipt of %d", seq).isTrue();
            } else {
                duplicates++;
                assertThat(first).as("second receipt of %d", seq).isFalse();
            }
        }

        assertThat(issued).isGreaterThan(DeliveryLedger.CHUNK_BITS);
        assertThat(ledger.received()).isEqualTo(model.size());
        assertThat(ledger.duplicates()).isEqualTo(duplicates);
        assertThat(ledger.unknown()).isEqualTo(unknown);
        assertThat(ledger.lost()).isEqualTo(issued - model.size());
    }

    @Test
    void twoThreadsReceivingTheSameNumbers_countEachOnceAndTheRestAsDuplicates() throws Exception {
        int count = DeliveryLedger.CHUNK_BITS + 1000; // across a chunk boundary
        DeliveryLedger ledger = new DeliveryLedger(count);
        for (int i = 0; i < count; i++) {
            ledger.issue();
        }
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            CountDownLatch start = new CountDownLatch(1);
            Future<?>[] receivers = new Future<?>[2];
            for (int t = 0; t < 2; t++) {
                receivers[t] = threads.submit(() -> {
                    start.await();
                    for (int i = 0; i < count; i++) {
                        ledger.receive(i);
                    }
                    return null;
                });
            }
            start.countDown();
            for (Future<?> receiver : receivers) {
                receiver.get(30, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }

        assertThat(ledger.received()).isEqualTo(count);
        assertThat(ledger.duplicates()).isEqualTo(count);
        assertThat(ledger.lost()).isZero();
    }
}
