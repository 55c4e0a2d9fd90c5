package dev.cim.loadgen.peer;

import dev.cim.loadgen.ChatUser;
import dev.cim.loadgen.Opened;
import java.time.Duration;

/**
 * The users of a peer's side in part 1's comparison, opened and closed together: what a
 * {@code ClientPool} is for cim, for an MQTT broker ({@link MqttClientPool}) or an XMPP server
 * ({@code dev.cim.loadgen.peer.xmpp.XmppPool}).
 */
public interface PeerPool extends AutoCloseable {

    /**
     * Connects and logs in {@code count} users, waiting at most {@code timeout} in all.
     *
     * @param prefix starts the users' names where the peer lets the generator choose them (MQTT client
     *               ids), so that no run shares another's sessions
     */
    Opened<? extends ChatUser> open(String prefix, int count, Duration timeout) throws InterruptedException;

    /** How the users connect, for the report. */
    String describe();

    /** Connections lost without the generator closing them. */
    long dropped();

    /** Disconnects every user (not counted as dropped), then ends the pool's threads. */
    @Override
    void close();
}
