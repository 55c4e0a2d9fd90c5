package dev.cim.client.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;

class RequestsTest {

    private static Pending add(Requests requests, Pending.Kind kind, boolean internal, LongFunction<Envelope> build) {
        return requests.add(kind, internal, build, new CompletableFuture<>());
    }

    @Test
    void add_numbersRequestsFromOne_andBuildsEachWithItsNumber() {
        Requests requests = new Requests(10);

        Pending first = add(requests, Pending.Kind.SEND, false, id -> Envelopes.send(id, "bob", "one"));
        Pending second = add(requests, Pending.Kind.ONLINE_USERS, false, Envelopes::onlineUsersRequest);
        Pending third = add(requests, Pending.Kind.RELEASE, true, id -> Envelopes.release(id, "x-1"));

        assertThat(List.of(first.id, second.id, third.id)).containsExactly(1L, 2L, 3L);
        assertThat(first.envelope.getRequestId()).isEqualTo(1);
        assertThat(third.envelope.getRequestId()).isEqualTo(3);
        assertThat(third.internal).isTrue();
        assertThat(requests.get(2)).isSameAs(second);
    }

    @Test
    void inOrder_afterAnswersInAnyOrder_keepsTheRestOldestFirst() {
        Requests requests = new Requests(10);
        for (int i = 0; i < 5; i++) {
            add(requests, Pending.Kind.SEND, false, id -> Envelopes.send(id, "bob", "m" + id));
        }

        requests.remove(4);
        requests.remove(1);

        assertThat(requests.inOrder()).extracting(p -> p.id).containsExactly(2L, 3L, 5L);
        assertThat(requests.size()).isEqualTo(3);
        assertThat(requests.get(1)).isNull();
        assertThat(requests.remove(1)).as("answered twice").isNull();
    }

    @Test
    void inOrder_ofThousandsAnsweredAtRandom_isSortedByNumber() {
        Requests requests = new Requests(10_000);
        for (int i = 0; i < 5000; i++) {
            add(requests, Pending.Kind.SEND, false, id -> Envelopes.send(id, "bob", "m" + id));
        }
        Random random = new Random(7);
        List<Long> left = new ArrayList<>();
        for (long id = 1; id <= 5000; id++) {
            if (random.nextBoolean()) {
                requests.remove(id);
            } else {
                left.add(id);
            }
        }

        assertThat(requests.inOrder()).extracting(p -> p.id).containsExactlyElementsOf(left);
    }

    @Test
    void add_afterAnswers_neverReusesANumber() {
        Requests requests = new Requests(2);
        add(requests, Pending.Kind.SEND, false, id -> Envelopes.send(id, "bob", "a"));
        add(requests, Pending.Kind.SEND, false, id -> Envelopes.send(id, "bob", "b"));
        requests.remove(2);
        requests.remove(1);

        Pending next = add(requests, Pending.Kind.SEND, false, id -> Envelopes.send(id, "bob", "c"));

        assertThat(next.id).isEqualTo(3);
    }

    @Test
    void add_pastTheLimit_failsWithOutboxFull_andUsesNoNumber() {
        Requests requests = new Requests(2);
        add(requests, Pending.Kind.SEND, false, id -> Envelopes.send(id, "bob", "a"));
        add(requests, Pending.Kind.SEND, false, id -> Envelopes.send(id, "bob", "b"));

        assertThatThrownBy(() -> add(requests, Pending.Kind.SEND, false, id -> Envelopes.send(id, "bob", "c")))
                .isInstanceOfSatisfying(CimException.class,
                        e -> assertThat(e.reason()).isEqualTo(CimException.Reason.OUTBOX_FULL))
                .hasMessageContaining("2 requests are waiting");
        requests.remove(1);
        assertThat(add(requests, Pending.Kind.SEND, false, id -> Envelopes.send(id, "bob", "c")).id)
                .as("a refused request takes no number: sequences stay gapless").isEqualTo(3);
    }

    @Test
    void failAll_failsEveryRequestWithTheCauseGivenForIt_andForgetsThem() {
        Requests requests = new Requests(10);
        Pending a = add(requests, Pending.Kind.SEND, false, id -> Envelopes.send(id, "bob", "a"));
        Pending b = add(requests, Pending.Kind.LIST_SCHEDULED, true, id -> Envelopes.listScheduled(id, 0));
        a.written = true;
        CimException unconfirmed = new CimException(CimException.Reason.UNCONFIRMED, "written");
        CimException closed = new CimException(CimException.Reason.CLOSED, "not written");

        requests.failAll(pending -> pending.written ? unconfirmed : closed);

        assertThat(a.result.handle((value, failure) -> failure).join()).isSameAs(unconfirmed);
        assertThat(b.result.handle((value, failure) -> failure).join()).isSameAs(closed);
        assertThat(requests.size()).isZero();
        assertThat(requests.inOrder()).isEmpty();
    }

    @Test
    void constructor_limitBelowOne_isRefused() {
        assertThatThrownBy(() -> new Requests(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("max outstanding requests: 0 (expected: >= 1)");
    }
}
