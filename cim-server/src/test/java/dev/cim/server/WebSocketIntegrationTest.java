package dev.cim.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cim.client.core.CimClient;
import dev.cim.client.core.Recipient;
import dev.cim.client.core.Recorder;
import dev.cim.client.core.SendReceipt;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.server.net.CimServer;
import dev.cim.server.support.SharedServer;
import dev.cim.server.support.TestServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The web port over real sockets: its page, and WebSocket connections speaking the protocol in JSON
 * (as the page does) or in binary Protocol Buffers, with the chat port's login, limits and errors,
 * chatting with clients of the chat port.
 */
class WebSocketIntegrationTest {

    @RegisterExtension
    static final SharedServer shared = new SharedServer("--cim.server.node-id=web-node",
            "--cim.server.web.allowed-origins=https://chat.example.com");

    private final TestServer server = shared.server();
    private final HttpClient http = HttpClient.newHttpClient();

    private int webPort() {
        return server.bean(CimServer.class).webPort();
    }

    /** A WebSocket client that keeps every text message and how it closed. */
    private static final class Socket implements WebSocket.Listener {
        final List<String> texts = new CopyOnWriteArrayList<>();
        final List<ByteBuffer> binaries = new CopyOnWriteArrayList<>();
        volatile Integer closeStatus;
        private final StringBuilder partial = new StringBuilder();
        WebSocket socket;

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                texts.add(partial.toString());
                partial.setLength(0);
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
            ByteBuffer copy = ByteBuffer.allocate(data.remaining());
            copy.put(data).flip();
            binaries.add(copy);
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            closeStatus = statusCode;
            return null;
        }

        void send(String json) {
            socket.sendText(json, true).join();
        }

        String awaitText(String part) {
            await().atMost(Recorder.WAIT).until(() -> texts.stream().anyMatch(t -> t.contains(part)));
            return texts.stream().filter(t -> t.contains(part)).findFirst().orElseThrow();
        }
    }

    private Socket open(String subprotocol, String origin) {
        Socket listener = new Socket();
        WebSocket.Builder builder = http.newWebSocketBuilder().subprotocols(subprotocol);
        if (origin != null) {
            builder.header("Origin", origin);
        }
        listener.socket = builder.buildAsync(URI.create("ws://127.0.0.1:" + webPort() + "/ws"), listener).join();
        return listener;
    }

    private static String login(String user) {
        return "{\"version\":" + Envelopes.PROTOCOL_VERSION + ",\"login\":{\"userName\":\"" + user
                + "\",\"password\":\"" + TestServer.PASSWORD + "\",\"origin\":\""
                + Long.toUnsignedString(ThreadLocalRandom.current().nextLong() | 1) + "\"}}";
    }

    @Test
    void page_isServedWithAPolicyThatForbidsInlineAndForeignScript() throws Exception {
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + webPort() + "/"))
                .build(), HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> missing = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + webPort()
                + "/../application.properties")).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).contains("text/html; charset=utf-8");
        assertThat(page.headers().firstValue("Content-Security-Policy")).get().asString()
                .contains("script-src 'self'").doesNotContain("unsafe-inline").contains("frame-ancestors 'none'");
        assertThat(page.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
        assertThat(missing.statusCode()).isEqualTo(404);
    }

    @Test
    void json_loginAndChatBothWaysWithAChatPortClient_withAcknowledgements() {
        String web = shared.name("webby");
        String tcp = shared.name("tcpy");
        Recorder tcpRecorder = new Recorder();
        CimClient tcpClient = shared.online(tcp, tcpRecorder);
        Socket socket = open("cim.json", null);

        socket.send(login(web));
        assertThat(socket.awaitText("loginResult")).contains("\"ok\":true").contains("\"userName\":\"" + web + "\"");
        socket.send("{\"version\":" + Envelopes.PROTOCOL_VERSION + ",\"requestId\":\"1\",\"send\":{\"recipient\":\""
                + tcp + "\",\"text\":\"hello <b>tcp</b>\"}}");
        assertThat(tcpRecorder.awaitText("hello <b>tcp</b>").sender()).isEqualTo(web);
        assertThat(socket.awaitText("\"receipts\"")).contains("\"requestIds\":[\"1\"]");

        CompletableFuture<SendReceipt> back = tcpClient.send(Recipient.user(web), "hi web");
        assertThat(socket.awaitText("hi web")).contains("\"delivery\"").contains("\"sender\":\"" + tcp + "\"");
        socket.send("{\"version\":" + Envelopes.PROTOCOL_VERSION + ",\"ack\":{\"received\":\"1\"}}");
        assertThat(back.join().outcome()).isEqualTo(SendReceipt.Outcome.DELIVERED);
    }

    @Test
    void proto_binaryMessagesWork_too() throws Exception {
        String web = shared.name("binny");
        Socket socket = open("cim.proto", null);

        socket.socket.sendBinary(ByteBuffer.wrap(Envelopes.login(web, TestServer.PASSWORD, "",
                ThreadLocalRandom.current().nextLong() | 1).toByteArray()), true).join();

        await().atMost(Recorder.WAIT).until(() -> !socket.binaries.isEmpty());
        Envelope answer = Envelope.parseFrom(socket.binaries.get(0));
        assertThat(answer.getLoginResult().getOk()).isTrue();
    }

    @Test
    void badMessages_getOneErrorThatSaysWhatWasExpected_andTheClose() {
        Socket garbage = open("cim.json", null);
        Socket beforeLogin = open("cim.json", null);
        Socket tooLong = open("cim.json", null);

        garbage.send("{not json");
        beforeLogin.send("{\"version\":" + Envelopes.PROTOCOL_VERSION + ",\"ping\":{}}");
        tooLong.send(login("x".repeat(2000)));

        assertThat(garbage.awaitText("error")).contains("BAD_FRAME").contains("JSON mapping");
        assertThat(beforeLogin.awaitText("error")).contains("NOT_LOGGED_IN");
        assertThat(tooLong.awaitText("error")).contains("FRAME_TOO_LONG").contains("at most 1024");
        await().atMost(Recorder.WAIT).until(() -> garbage.closeStatus != null && beforeLogin.closeStatus != null
                && tooLong.closeStatus != null);
    }

    @Test
    void anotherSitesOrigin_isRefused_andAnAllowedOne_isNot() {
        CompletableFuture<WebSocket> foreign = http.newWebSocketBuilder().header("Origin", "https://evil.example")
                .subprotocols("cim.json").buildAsync(URI.create("ws://127.0.0.1:" + webPort() + "/ws"), new Socket());
        Socket allowed = open("cim.json", "https://chat.example.com");
        Socket own = open("cim.json", "http://127.0.0.1:" + webPort());

        Throwable refused = org.assertj.core.api.Assertions.catchThrowable(foreign::join);
        assertThat(refused).isInstanceOf(CompletionException.class)
                .cause().isInstanceOf(java.net.http.WebSocketHandshakeException.class);
        assertThat(((java.net.http.WebSocketHandshakeException) refused.getCause()).getResponse().statusCode())
                .isEqualTo(403);
        allowed.send(login(shared.name("allowed")));
        own.send(login(shared.name("own")));
        assertThat(allowed.awaitText("loginResult")).contains("\"ok\":true");
        assertThat(own.awaitText("loginResult")).contains("\"ok\":true");
    }

    @Test
    void logout_endsTheTokenItLoggedInWith_andTheConnection() {
        String user = shared.name("leaver");
        Socket first = open("cim.json", null);
        first.send(login(user));
        String result = first.awaitText("loginResult");
        String token = result.replaceAll(".*\"sessionToken\":\"([^\"]+)\".*", "$1");

        first.send("{\"version\":" + Envelopes.PROTOCOL_VERSION + ",\"logout\":{}}");

        assertThat(first.awaitText("logged out")).contains("\"closing\":true");
        Socket again = open("cim.json", null);
        again.send("{\"version\":" + Envelopes.PROTOCOL_VERSION + ",\"login\":{\"userName\":\"" + user
                + "\",\"token\":\"" + token + "\",\"origin\":\"7\"}}");
        assertThat(again.awaitText("loginResult")).doesNotContain("\"ok\":true");
    }

    @Test
    void libraryClient_overTheWebPort_chatsWithAChatPortClient() {
        String web = shared.name("libws");
        String tcp = shared.name("libtcp");
        Recorder webRecorder = new Recorder();
        Recorder tcpRecorder = new Recorder();
        CimClient tcpClient = shared.online(tcp, tcpRecorder);
        CimClient webClient = server.client(server.builder(web, webRecorder)
                .addresses("127.0.0.1:" + webPort()).webSocket(true));
        webClient.connect().join();

        assertThat(webClient.send(Recipient.user(tcp), "over a websocket").join().outcome())
                .isEqualTo(SendReceipt.Outcome.DELIVERED);
        tcpRecorder.awaitText("over a websocket");
        tcpClient.send(Recipient.user(web), "back over tcp").join();
        webRecorder.awaitText("back over tcp");
    }
}
