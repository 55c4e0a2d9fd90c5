package dev.cim.loadgen.peer;

import dev.cim.loadgen.ChatUser;
import dev.cim.loadgen.Traffic;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.eclipse.paho.client.mqttv3.IMqttActionListener;
import org.eclipse.paho.client.mqttv3.IMqttDeliveryToken;
import org.eclipse.paho.client.mqttv3.IMqttToken;
import org.eclipse.paho.client.mqttv3.MqttAsyncClient;
import org.eclipse.paho.client.mqttv3.MqttCallback;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.MqttMessage;

/**
 * One simulated user of an MQTT broker, what a {@code LoadClient} is for cim: an Eclipse Paho
 * {@link MqttAsyncClient} whose client id is the user's name, in a persistent session
 * (cleanSession=false: the broker holds QoS 1 messages for it), subscribed at QoS 1 to its own topic
 * {@code cim/<name>}.
 *
 * <h3>The same traffic as cim's</h3>
 * A send is a QoS 1 PUBLISH of the generator's token text to the recipient's topic. What arrives
 * goes to the traffic as {@link Traffic#onText}: the delivery, which closes the loop and ends the
 * latency, as a chat message does for a cim user. The broker's PUBACK goes to it as
 * {@link Traffic#onAccepted} (the broker has the message; a cim receipt says its recipient has it,
 * so the two are counted apart), a publish that fails as {@link Traffic#onFailure}. The traffic a
 * message was sent under rides on its Paho token as the user context, so an answer goes to the
 * traffic of its send with nothing allocated for it here.
 *
 * <h3>What the client library adds</h3>
 * Paho hands an arriving message from its receiving thread to its callback thread before
 * {@link #messageArrived}, where the time of receipt is read: one thread hand-off later than a cim
 * client, which reads it on the event loop that decoded the frame. That hand-off is part of what
 * the client costs and counts as latency, and the three threads each client has (receiving,
 * sending, callbacks) count in the generator's CPU per message.
 */
public final class MqttLoadClient implements ChatUser, MqttCallback {

    private final String name;
    private final String topic;
    private final MqttAsyncClient client;
    private final ScheduledExecutorService pacer;
    private final LongAdder dropped;
    private final IMqttActionListener answers = new Answers();
    private volatile Traffic traffic = Traffic.NONE;
    private volatile boolean closing;

    /**
     * @param client  not yet connected; this becomes its callback
     * @param pacer   the loop that paces this user's sends, shared with others
     * @param dropped counts connections lost without the generator closing them
     */
    MqttLoadClient(String name, MqttAsyncClient client, ScheduledExecutorService pacer, LongAdder dropped) {
        this.name = name;
        this.topic = topic(name);
        this.client = client;
        this.pacer = pacer;
        this.dropped = dropped;
        client.setCallback(this);
    }

    /** The topic user {@code name} subscribes to, and its messages are published to. */
    static String topic(String name) {
        return "cim/" + name;
    }

    /** The user's name, its client id. */
    public String name() {
        return name;
    }

    /** Connects and subscribes to this user's topic at QoS 1; completes with this client. */
    CompletableFuture<MqttLoadClient> connect(MqttConnectOptions options) {
        CompletableFuture<MqttLoadClient> done = new CompletableFuture<>();
        try {
            client.connect(options, null, listener(connected -> subscribe(done), done::completeExceptionally));
        } catch (MqttException e) {
            done.completeExceptionally(e);
        }
        return done;
    }

    private void subscribe(CompletableFuture<MqttLoadClient> done) {
        try {
            client.subscribe(topic, 1, null, listener(subscribed -> {
                int granted = subscribed.getGrantedQos()[0];
                if (granted == 1) {
                    done.complete(this);
                } else {
                    done.completeExceptionally(new IllegalStateException("subscription to " + topic + ": the broker "
                            + "granted QoS " + granted + " (expected: 1)"));
                }
            }, done::completeExceptionally));
        } catch (MqttException e) {
            done.completeExceptionally(e);
        }
    }

    private static IMqttActionListener listener(Consumer<IMqttToken> succeeded, Consumer<Throwable> failed) {
        return new IMqttActionListener() {
            @Override
            public void onSuccess(IMqttToken token) {
                succeeded.accept(token);
            }

            @Override
            public void onFailure(IMqttToken token, Throwable failure) {
                failed.accept(failure);
            }
        };
    }

    @Override
    public void send(ChatUser to, String text) {
        if (!(to instanceof MqttLoadClient user)) {
            throw new IllegalArgumentException("to: " + to + " (expected: an MQTT user, of the same side as " + name + ")");
        }
        Traffic current = traffic;
        try {
            client.publish(user.topic, text.getBytes(StandardCharsets.UTF_8), 1, false, current, answers);
        } catch (MqttException e) {
            current.onFailure(this, e);
        }
    }

    @Override
    public void traffic(Traffic traffic) {
        this.traffic = traffic;
    }

    @Override
    public ScheduledExecutorService pacer() {
        return pacer;
    }

    @Override
    public void messageArrived(String from, MqttMessage message) {
        long now = System.nanoTime();
        traffic.onText(this, new String(message.getPayload(), StandardCharsets.UTF_8), now);
    }

    @Override
    public void deliveryComplete(IMqttDeliveryToken token) {
        // counted by Answers, which has the traffic the message was sent under
    }

    @Override
    public void connectionLost(Throwable cause) {
        if (!closing) {
            dropped.increment();
        }
    }

    /** Starts disconnecting (not counted as dropped); null if it was not connected. */
    IMqttToken disconnect() {
        closing = true;
        try {
            return client.isConnected() ? client.disconnect(0) : null;
        } catch (MqttException e) {
            return null;
        }
    }

    /** Frees the client once disconnected (or forces it): its threads end. */
    void close() {
        closing = true;
        try {
            if (client.isConnected()) {
                client.disconnectForcibly(0, 100);
            }
            client.close(true);
        } catch (MqttException e) {
            // closing anyway: nothing of this client is read after
        }
    }

    @Override
    public String toString() {
        return "MQTT user " + name;
    }

    /** The broker's answer to a publish, handed to the traffic of its send (the token's user context). */
    private final class Answers implements IMqttActionListener {

        @Override
        public void onSuccess(IMqttToken token) {
            ((Traffic) token.getUserContext()).onAccepted(MqttLoadClient.this);
        }

        @Override
        public void onFailure(IMqttToken token, Throwable failure) {
            ((Traffic) token.getUserContext()).onFailure(MqttLoadClient.this, failure);
        }
    }
}
