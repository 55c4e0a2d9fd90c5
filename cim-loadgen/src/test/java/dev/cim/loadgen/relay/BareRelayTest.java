package dev.cim.loadgen.relay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.client.core.CimClient;
import dev.cim.client.core.Recipient;
import dev.cim.client.core.SendReceipt;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The relay the load generator measures the server against, on real loopback TCP: a client of the
 * library sends, a recipient speaking the protocol by hand reads, and acknowledges only when the
 * test says so, which is what tells the two ways of answering apart.
 */
class BareRelayTest {

    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    @Test
    void send_isDeliveredWithTheServersChatFields_andAnsweredOnHandOver_withoutTheRecipientsAck() throws Exception {
        BareRelay relay = open(BareRelay.start("127.0.0.1", 0, 1, false));
        RawClient bob = open(new RawClient(relay, "bob"));
        CimClient alice = client(relay, "alice");

        CompletableFuture<SendReceipt> receipt = alice.send(Recipient.user("bob"), "hello bob");

        Envelope delivery = bob.next(Envelope.KindCase.DELIVERY);
        assertThat(delivery.getDelivery().getChat().getText()).isEqualTo("hello bob");
        assertThat(delivery.getDelivery().getChat().getSender()).isEqualTo("alice");
        assertThat(delivery.getDelivery().getChat().getRecipient()).isEqualTo("bob");
        assertThat(delivery.getDelivery().getChat().getId()).matches("[0-9a-f]{16}-\\d+");
        SendReceipt answered = receipt.get(10, TimeUnit.SECONDS); // bob never acknowledges
        assertThat(answered.outcome()).isEqualTo(SendReceipt.Outcome.DELIVERED);
        assertThat(answered.sessions()).isEqualTo(1);
        assertThat(answered.messageId()).isEqualTo(delivery.getDelivery().getChat().getId());
    }

    @Test
    void acked_answersASend_onlyOnceTheRecipientsAckCountsIt() throws Exception {
        BareRelay relay = open(BareRelay.start("127.0.0.1", 0, 1, true));
        RawClient bob = open(new RawClient(relay, "bob"));
        CimClient alice = client(relay, "alice");

        CompletableFuture<SendReceipt> first = alice.send(Recipient.user("bob"), "one");
        CompletableFuture<SendReceipt> second = alice.send(Recipient.user("bob"), "two");
        bob.next(Envelope.KindCase.DELIVERY);
        bob.next(Envelope.KindCase.DELIVERY);
        bob.ping(); // answered in order on bob's loop, after both deliveries were handed over
        bob.ack(1);

        assertThat(first.get(10, TimeUnit.SECONDS).outcome()).isEqualTo(SendReceipt.Outcome.DELIVERED);
        assertThat(second).as("not acknowledged yet").isNotDone();
        bob.ack(2);
        assertThat(second.get(10, TimeUnit.SECONDS).sessions()).isEqualTo(1);
    }

    @Test
    void sendToSomeoneNotConnected_isRefusedSayingSo_andTheRelayServesOn() throws Exception {
        BareRelay relay = open(BareRelay.start("127.0.0.1", 0, 1, false));
        CimClient alice = client(relay, "alice");

        CompletableFuture<SendReceipt> refused = alice.send(Recipient.user("nobody"), "hello?");

        assertThat(refused).failsWithin(10, TimeUnit.SECONDS).withThrowableThat()
                .withMessageContaining("not connected (the relay stores nothing)");
        RawClient bob = open(new RawClient(relay, "bob"));
        alice.send(Recipient.user("bob"), "still here");
        assertThat(bob.next(Envelope.KindCase.DELIVERY).getDelivery().getChat().getText()).isEqualTo("still here");
    }

    private <T extends AutoCloseable> T open(T closeable) {
        closing.add(closeable);
        return closeable;
    }

    private CimClient client(BareRelay relay, String user) {
        CimClient client = open(CimClient.builder().addresses("127.0.0.1:" + relay.address().getPort()).user(user)
                .password("any password").build());
        client.connect().join();
        return client;
    }

    /** The protocol by hand: length-prefixed envelopes on a blocking socket, read with a timeout. */
    private static final class RawClient implements AutoCloseable {

        private final Socket socket;
        private final DataInputStream in;
        private final DataOutputStream out;

        RawClient(BareRelay relay, String user) throws IOException {
            socket = new Socket("127.0.0.1", relay.address().getPort());
            socket.setSoTimeout(10_000);
            in = new DataInputStream(socket.getInputStream());
            out = new DataOutputStream(socket.getOutputStream());
            write(Envelopes.login(user, "any password", "", 42));
            assertThat(next(Envelope.KindCase.LOGIN_RESULT).getLoginResult().getOk()).isTrue();
        }

        /** The next frame, which must be of {@code kind}. */
        Envelope next(Envelope.KindCase kind) throws IOException {
            byte[] frame = new byte[in.readInt()];
            in.readFully(frame);
            Envelope envelope = Envelope.parseFrom(frame);
            assertThat(envelope.getKindCase()).isEqualTo(kind);
            return envelope;
        }

        void ping() throws IOException {
            write(Envelopes.ping(1));
            next(Envelope.KindCase.PONG);
        }

        void ack(long received) throws IOException {
            write(Envelopes.ack(received));
        }

        private void write(Envelope envelope) throws IOException {
            byte[] bytes = envelope.toByteArray();
            out.writeInt(bytes.length);
            out.write(bytes);
            out.flush();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
