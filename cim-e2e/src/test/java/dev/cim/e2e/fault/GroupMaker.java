package dev.cim.e2e.fault;

import dev.cim.client.core.CimClient;
import java.util.List;

/** Makes the fault suite's group, through the client library: its first sender owns it. */
final class GroupMaker {

    private GroupMaker() {
    }

    /**
     * Logs in each of {@code senders} once (their first login makes their accounts), then has the
     * first make group {@code name} with {@code members}, whose accounts exist already.
     */
    static void create(int port, List<String> senders, String name, List<String> members) {
        for (String sender : senders.subList(1, senders.size())) {
            try (CimClient client = client(port, sender)) {
                client.connect().join();
            }
        }
        try (CimClient owner = client(port, senders.get(0))) {
            owner.connect().join();
            var result = owner.groups().create(name, false, members).join();
            if (!result.refused().isEmpty()) {
                throw new IllegalStateException("members refused: " + result.refused());
            }
        }
    }

    private static CimClient client(int port, String user) {
        return CimClient.builder().addresses("127.0.0.1:" + port).user(user).password(FaultClient.PASSWORD).build();
    }
}
