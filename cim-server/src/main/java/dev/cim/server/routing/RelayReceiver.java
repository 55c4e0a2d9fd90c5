package dev.cim.server.routing;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.cim.common.protocol.ChatMessage;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.Relay;
import dev.cim.server.session.Session;
import dev.cim.server.session.SessionRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;

/**
 * Delivers messages relayed by other nodes to this node's sessions: a message to everyone to every
 * session here, a private one to the recipient's sessions here and to the sender's, who may have
 * other terminals on this node. Only writes to channels, never blocks, so it may run on the Redis
 * client's thread, which also keeps relayed messages in order.
 */
public final class RelayReceiver implements MessageListener {

    private static final Logger log = LoggerFactory.getLogger(RelayReceiver.class);

    private final SessionRegistry sessions;
    private final String nodeId;

    public RelayReceiver(SessionRegistry sessions, String nodeId) {
        this.sessions = sessions;
        this.nodeId = nodeId;
    }

    @Override
    public void onMessage(Message message, byte[] pattern) {
        Relay relay;
        ChatMessage chat;
        try {
            relay = Relay.parseFrom(message.getBody());
            chat = ChatMessage.fromProto(relay.getChat());
        } catch (InvalidProtocolBufferException | IllegalArgumentException e) {
            log.warn("Dropped an unreadable relayed message: {}", e.getMessage());
            return;
        }
        if (relay.getOriginNode().equals(nodeId)) {
            return; // Our own broadcast: delivered here already.
        }
        Envelope envelope = Envelopes.chat(0, chat);
        if (chat.isBroadcast()) {
            sessions.all().forEach(s -> s.send(envelope));
            return;
        }
        sessions.sessionsOf(chat.recipient()).forEach(s -> s.send(envelope));
        if (!chat.recipient().equals(chat.sender())) {
            for (Session s : sessions.sessionsOf(chat.sender())) {
                s.send(envelope);
            }
        }
    }
}
