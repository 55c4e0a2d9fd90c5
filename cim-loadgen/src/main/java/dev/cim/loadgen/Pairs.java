package dev.cim.loadgen;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/** Sends private messages between random pairs of distinct users of one list, all of one side. */
final class Pairs {

    private final List<? extends ChatUser> clients;

    Pairs(List<? extends ChatUser> clients) {
        if (clients.size() < 2) {
            throw new IllegalArgumentException("clients: " + clients.size() + " (expected: at least 2 for pairs)");
        }
        this.clients = clients;
    }

    List<? extends ChatUser> clients() {
        return clients;
    }

    ChatUser random() {
        return clients.get(ThreadLocalRandom.current().nextInt(clients.size()));
    }

    /** A random user other than {@code sender}. */
    ChatUser recipientFor(ChatUser sender) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        ChatUser recipient;
        do {
            recipient = clients.get(random.nextInt(clients.size()));
        } while (recipient == sender);
        return recipient;
    }

    /** Sends {@code token} from {@code sender} to a random other user. */
    void send(ChatUser sender, Token token) {
        sender.send(recipientFor(sender), token.text());
    }

    /** Makes every client hand its frames to {@code traffic}. */
    void route(Traffic traffic) {
        clients.forEach(client -> client.traffic(traffic));
    }
}
