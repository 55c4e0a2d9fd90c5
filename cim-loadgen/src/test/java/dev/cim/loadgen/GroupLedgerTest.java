package dev.cim.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GroupLedgerTest {

    @Test
    void everyOtherMemberReceivingEachMessageOnce_isNeitherLostNorDuplicated() {
        GroupLedger ledger = new GroupLedger(4, 3);
        for (int poster = 0; poster < 3; poster++) {
            long message = ledger.issue(poster);
            assertThat(message).isEqualTo(poster);
            for (int member = 0; member < 4; member++) {
                if (member != poster) {
                    assertThat(ledger.receive(message, member)).isTrue();
                }
            }
        }

        assertThat(ledger.messages()).isEqualTo(3);
        assertThat(ledger.lost()).isZero();
        assertThat(ledger.duplicates()).isZero();
        assertThat(ledger.awaitAll(Duration.ZERO)).isTrue();
        assertThat(ledger.receivedBy(0)).as("two messages of others").isEqualTo(2);
        assertThat(ledger.receivedBy(3)).as("all three").isEqualTo(3);
    }

    @Test
    void aMemberMissingOne_isOneLost_andOneReceivedTwice_isOneDuplicate_perMember() {
        GroupLedger ledger = new GroupLedger(3, 2);
        long first = ledger.issue(0);
        long second = ledger.issue(0);
        ledger.receive(first, 1);
        ledger.receive(first, 2);
        ledger.receive(second, 1);
        assertThat(ledger.receive(second, 1)).isFalse();

        assertThat(ledger.lost()).as("member 2's copy of the second").isEqualTo(1);
        assertThat(ledger.duplicates()).isEqualTo(1);
        assertThat(ledger.receivedBy(1)).isEqualTo(2);
        assertThat(ledger.receivedBy(2)).isEqualTo(1);
        assertThat(ledger.awaitAll(Duration.ofMillis(1))).isFalse();
    }

    @Test
    void thePostersOwnCopy_isExpectedOfNobody_andItsReceiptIsADuplicate() {
        GroupLedger ledger = new GroupLedger(2, 1);
        long message = ledger.issue(1);

        assertThat(ledger.lost()).isEqualTo(1);
        assertThat(ledger.receive(message, 1)).isFalse();
        assertThat(ledger.duplicates()).isEqualTo(1);
        assertThat(ledger.receivedBy(1)).isZero();
    }

    @Test
    void aRefusedMessage_isExpectedOfNobody() {
        GroupLedger ledger = new GroupLedger(3, 2);
        long refused = ledger.issue(2);
        long posted = ledger.issue(2);
        ledger.refused(refused, 2);
        ledger.receive(posted, 0);
        ledger.receive(posted, 1);

        assertThat(ledger.lost()).isZero();
        assertThat(ledger.duplicates()).isZero();
        assertThat(ledger.receivedBy(0)).as("a refused message is not received").isEqualTo(1);
    }

    @Test
    void aMessageNeverIssued_isUnknown_andASlotOutsideTheGroupIsRefused() {
        GroupLedger ledger = new GroupLedger(3, 1);
        ledger.issue(0);

        assertThat(ledger.receive(1, 1)).isFalse();
        assertThat(ledger.receive(-1, 1)).isFalse();
        assertThat(ledger.unknown()).isEqualTo(2);
        assertThatIllegalArgumentException().isThrownBy(() -> ledger.receive(0, 3))
                .withMessage("member slot: 3 (expected: 0 to 2)");
        assertThatIllegalArgumentException().isThrownBy(() -> new GroupLedger(1, 1))
                .withMessageContaining("expected: members >= 2");
    }

    @Test
    void randomPostsAndReceipts_countAsASetOfMemberCopiesWould() {
        Random random = new Random(26);
        int members = 7;
        GroupLedger ledger = new GroupLedger(members, 1);
        Set<Long> expected = new HashSet<>();
        Set<Long> received = new HashSet<>();
        int[] perMember = new int[members];
        long duplicates = 0;
        for (int op = 0; op < 20_000; op++) {
            if (random.nextInt(4) == 0) {
                int poster = random.nextInt(members);
                long message = ledger.issue(poster);
                for (int m = 0; m < members; m++) {
                    if (m != poster) {
                        expected.add(message * members + m);
                    }
                }
                continue;
            }
            if (ledger.messages() == 0) {
                continue;
            }
            long message = random.nextLong(ledger.messages());
            int member = random.nextInt(members);
            long copy = message * members + member;
            boolean first = ledger.receive(message, member);
            if (expected.contains(copy) && received.add(copy)) {
                assertThat(first).isTrue();
                perMember[member]++;
            } else {
                assertThat(first).isFalse();
                duplicates++;
            }
        }

        assertThat(ledger.lost()).isEqualTo(expected.size() - received.size());
        assertThat(ledger.duplicates()).isEqualTo(duplicates);
        for (int m = 0; m < members; m++) {
            assertThat(ledger.receivedBy(m)).isEqualTo(perMember[m]);
        }
    }
}
