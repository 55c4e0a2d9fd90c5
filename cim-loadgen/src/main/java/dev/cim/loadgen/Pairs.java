package dev.cim.loadgen;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/** Sends private messages between random pairs of distinct users of one list. */
final class Pairs {

    private final List<LoadClient> clients;

    Pairs(List<LoadClient> clients) {
        if (clients.size() < 2) {
            throw new IllegalArgumentException("clients: " + clients.size() + " (expected: at least 2 for pairs)");
        }
        this.clients = clients;
    }

    List<LoadClient> clients() {
        return clients;
    }

    LoadClient random() {
        return clients.get(ThreadLocalRandom.current().nextInt(clients.size()));
    }

    /** A random user other than {@code sender}. */
    LoadClient recipientFor(LoadClient sender) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        LoadClient recipient;
        do {
            recipient = clients.get(random.nextInt(clients.size()));
        } while (recipient == sender);
        return recipient;
    }

    /** Sends {@code token} from {@code sender} to a random other user. */
    void send(LoadClient sender, Token token) {
        sender.send(recipientFor(sender).recipient(), token.text());
    }

    /** Makes every client hand its frames to {@code traffic}. */
    void route(Traffic traffic) {
        clients.forEach(client -> client.traffic(traffic));
    }
}
