package dev.cim.e2e.fault;

import dev.cim.client.core.ChatMessage;
import dev.cim.client.core.CimClient;
import dev.cim.client.core.CimListener;
import dev.cim.client.core.ConnectionEvent;
import dev.cim.client.core.Recipient;
import dev.cim.client.core.SeenIds;
import dev.cim.client.core.When;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A client of the fault-injection suite, run as a process of its own (so that it can be killed):
 * the client library, driven by its arguments, printing what it does one line at a time.
 *
 * <pre>
 *   sender   USER ADDRESSES STATE_DIR RECIPIENT FROM COUNT PER_SECOND
 *            prints "SENT n" before sending message n ("n:&lt;n&gt;"), "ACK n" when the server
 *            confirmed it (delivered, or stored durably), "FAIL n reason" when it refused it,
 *            then "DONE" after the line of every message's answer
 *   receiver USER ADDRESSES STATE_DIR
 *            prints "RECV sender n" for each message shown; for a scheduled one
 *            "RECV sender n DUE dueMillis AT shownMillis BY server|client" (wall clock, epoch ms)
 *   scheduler USER ADDRESSES STATE_DIR RECIPIENT COUNT FIRST_DUE_MILLIS LAST_DUE_MILLIS
 *            schedules COUNT messages ("n:1".."n:COUNT") due evenly from the first to the last
 *            epoch millisecond, prints "SCHEDULED n" when the server holds message n, then "DONE"
 *   members  PREFIX COUNT ADDRESSES STATE_DIR
 *            COUNT receivers in one process, users PREFIX1..PREFIXn, each printing
 *            "RECV user sender n" and "CONNECTED user node" (a crowd of a group's members)
 * </pre>
 * A RECIPIENT is a user name or "#group". Each prints "CONNECTED node" at each login, and runs
 * until its standard input closes. The state
 * directory holds the ids of the messages shown, so a receiver killed and started again does not
 * show them twice (as the console client does).
 */
public final class FaultClient {

    static final String PASSWORD = "fault-pw-123";

    private FaultClient() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        String role = args[0];
        if ("members".equals(role)) {
            members(out, args[1], Integer.parseInt(args[2]), args[3], Path.of(args[4]));
            return;
        }
        String user = args[1];
        CimListener listener = new CimListener() {
            @Override
            public void onMessage(ChatMessage message) {
                String text = message.text();
                if (text.startsWith("n:")) {
                    String timing = message.delay() == null ? "" : " DUE " + message.delay().dueAt().toEpochMilli()
                            + " AT " + System.currentTimeMillis()
                            + " BY " + (message.delay().firedByServer() ? "server" : "client");
                    print(out, "RECV " + message.sender() + " " + text.substring(2) + timing);
                } else if (text.startsWith("occ:") && message.delay() != null) {
                    ChatMessage.Delay delay = message.delay();
                    print(out, "OCC " + delay.occurrence() + " MISSED " + delay.missed() + " DUE "
                            + delay.dueAt().toEpochMilli() + " AT " + System.currentTimeMillis() + " ID " + message.id());
                }
            }

            @Override
            public void onConnection(ConnectionEvent event) {
                if (event instanceof ConnectionEvent.Connected connected) {
                    print(out, "CONNECTED " + connected.nodeId());
                }
            }
        };
        CimClient client = client(user, args[2], Path.of(args[3]), listener);
        client.connect();
        if ("sender".equals(role)) {
            send(client, out, recipient(args[4]), Long.parseLong(args[5]), Long.parseLong(args[6]),
                    Double.parseDouble(args[7]));
        } else if ("scheduler".equals(role)) {
            schedule(client, out, recipient(args[4]), Integer.parseInt(args[5]), Long.parseLong(args[6]),
                    Long.parseLong(args[7]));
        } else if ("series".equals(role)) {
            // One recurring message: its occurrences are told apart by their numbers, not their text.
            client.schedule(recipient(args[4]), "occ:", When.every(args[5]).times(Integer.parseInt(args[6])))
                    .whenComplete((held, failure) -> print(out, failure == null ? "SCHEDULED " + held.id() + " DONE"
                            : "FAIL " + failure.getMessage()));
        } else if ("onliner".equals(role)) {
            java.util.List<java.util.concurrent.CompletableFuture<?>> all = new java.util.ArrayList<>();
            for (int n = 1; n <= Integer.parseInt(args[5]); n++) {
                int number = n;
                all.add(client.schedule(recipient(args[4]), "n:" + n, When.online()).whenComplete((held, failure) ->
                        print(out, failure == null ? "SCHEDULED " + number : "FAIL " + number + " " + failure.getMessage())));
            }
            java.util.concurrent.CompletableFuture.allOf(all.toArray(java.util.concurrent.CompletableFuture[]::new))
                    .whenComplete((done, failure) -> print(out, "DONE"));
        }
        while (System.in.read() != -1) {
            // runs until the test closes standard input (or kills it)
        }
        client.close();
    }

    private static CimClient client(String user, String addresses, Path stateDir, CimListener listener) {
        return CimClient.builder()
                .addresses(addresses)
                .user(user)
                .password(PASSWORD)
                .listener(listener)
                .seenIds(SeenIds.file(stateDir.resolve(user + ".seen"), 100_000))
                .reconnectBackoff(Duration.ofMillis(100), Duration.ofSeconds(1))
                .build();
    }

    private static Recipient recipient(String name) {
        return name.startsWith("#") ? Recipient.group(name) : Recipient.user(name);
    }

    /** A crowd of receivers in one process, each line naming the member. */
    private static void members(PrintStream out, String prefix, int count, String addresses, Path stateDir)
            throws IOException {
        java.util.List<CimClient> clients = new java.util.ArrayList<>();
        for (int i = 1; i <= count; i++) {
            String member = prefix + i;
            CimClient client = client(member, addresses, stateDir, new CimListener() {
                @Override
                public void onMessage(ChatMessage message) {
                    if (message.text().startsWith("n:")) {
                        print(out, "RECV " + member + " " + message.sender() + " " + message.text().substring(2));
                    }
                }

                @Override
                public void onConnection(ConnectionEvent event) {
                    if (event instanceof ConnectionEvent.Connected connected) {
                        print(out, "CONNECTED " + member + " " + connected.nodeId());
                    }
                }
            });
            client.connect();
            clients.add(client);
        }
        while (System.in.read() != -1) {
            // runs until the test closes standard input (or kills it)
        }
        clients.forEach(CimClient::close);
    }

    private static void send(CimClient client, PrintStream out, Recipient to, long from, long count, double perSecond)
            throws InterruptedException {
        long start = System.nanoTime();
        // DONE follows the last ACK or FAIL line: the futures of the printing, not of the answers
        // (client.allAnswered() can complete before the last answer's line is printed).
        java.util.List<java.util.concurrent.CompletableFuture<?>> printed = new java.util.ArrayList<>();
        for (long i = 0; i < count; i++) {
            long n = from + i;
            long due = start + (long) (i * 1e9 / perSecond);
            long wait = due - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait); // pacing the traffic, not waiting for an outcome
            }
            print(out, "SENT " + n);
            printed.add(client.send(to, "n:" + n).whenComplete((receipt, failure) ->
                    print(out, failure == null ? "ACK " + n : "FAIL " + n + " " + failure.getMessage())));
        }
        java.util.concurrent.CompletableFuture.allOf(printed.toArray(java.util.concurrent.CompletableFuture[]::new))
                .whenComplete((done, failure) -> print(out, "DONE"));
    }

    private static void schedule(CimClient client, PrintStream out, Recipient to, int count, long firstDue,
            long lastDue) {
        java.util.List<java.util.concurrent.CompletableFuture<?>> all = new java.util.ArrayList<>();
        for (int n = 1; n <= count; n++) {
            long due = count == 1 ? firstDue : firstDue + (lastDue - firstDue) * (n - 1) / (count - 1);
            int number = n;
            all.add(client.schedule(to, "n:" + n, java.time.Instant.ofEpochMilli(due)).whenComplete((held, failure) ->
                    print(out, failure == null ? "SCHEDULED " + number : "FAIL " + number + " " + failure.getMessage())));
        }
        java.util.concurrent.CompletableFuture.allOf(all.toArray(java.util.concurrent.CompletableFuture[]::new))
                .whenComplete((done, failure) -> print(out, "DONE"));
    }

    private static void print(PrintStream out, String line) {
        synchronized (out) {
            out.println(line);
        }
    }

}
