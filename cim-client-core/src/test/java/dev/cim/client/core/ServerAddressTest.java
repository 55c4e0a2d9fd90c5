package dev.cim.client.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class ServerAddressTest {

    @ParameterizedTest(name = "''{0}'' is {1} port {2}")
    @CsvSource(delimiter = '|', value = {
        "127.0.0.1:9000|127.0.0.1|9000",
        "  chat.example.com:1  |chat.example.com|1",
        "localhost:65535|localhost|65535",
        "[::1]:9000|::1|9000",
        "[2001:db8::7]:443|2001:db8::7|443",
    })
    void parse_hostAndPort_readsBoth(String text, String host, int port) {
        assertThat(ServerAddress.parse(text)).isEqualTo(new ServerAddress(host, port));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"127.0.0.1:9000", "[::1]:9000", "[2001:db8::7]:443", "chat.example.com:1"})
    void toString_writesWhatParseReads(String text) {
        assertThat(ServerAddress.parse(text)).hasToString(text);
        assertThat(ServerAddress.parse(ServerAddress.parse(text).toString())).isEqualTo(ServerAddress.parse(text));
    }

    @Test
    void parseList_commaSeparated_keepsTheOrderAndSkipsEmptyItems() {
        assertThat(ServerAddress.parseList("10.0.0.1:9000, [::1]:9001,,chat:9002,"))
                .containsExactly(new ServerAddress("10.0.0.1", 9000), new ServerAddress("::1", 9001),
                        new ServerAddress("chat", 9002));
    }

    @ParameterizedTest(name = "''{0}''")
    @NullAndEmptySource
    @ValueSource(strings = {" ", ",", " , ,"})
    void parseList_noAddress_failsSayingWhatWasExpected(String text) {
        assertThatThrownBy(() -> ServerAddress.parseList(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no server address in '" + text + "' (expected: host:port[,host:port...])");
    }

    @Test
    void parseList_oneBadItem_failsNamingIt() {
        assertThatThrownBy(() -> ServerAddress.parseList("a:1,b:two")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("'b:two' is not a server address (expected: host:port");
    }

    @ParameterizedTest(name = "''{0}''")
    @NullAndEmptySource
    @ValueSource(strings = {"localhost", "localhost:", ":9000", "localhost:port", "localhost:9000x", "host:90 00",
        "[::1]", "::1", "2001:db8::7:443", "[::1:9000", "host:0", "host:65536", "host:-1", "[]:9000"})
    void parse_notHostColonPort_failsWithOneLineSayingWhatWasExpected(String text) {
        assertThatThrownBy(() -> ServerAddress.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .satisfies(e -> assertThat(e.getMessage()).contains("(expected: ").doesNotContain("\n"));
    }

    @Test
    void parse_unbracketedIpv6_isRefusedPointingToTheBrackets() {
        assertThatThrownBy(() -> ServerAddress.parse("::1:9000")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[::1]:9000");
    }

    @Test
    void constructor_badPortOrHost_saysWhatWasExpected() {
        assertThatThrownBy(() -> new ServerAddress("h", 0)).hasMessage("port: 0 (expected: 1 to 65535)");
        assertThatThrownBy(() -> new ServerAddress(" ", 1)).hasMessage("host: ' ' (expected: a host name or address)");
        assertThat(List.of(new ServerAddress("h", 1))).containsExactly(ServerAddress.parse("h:1"));
    }
}
