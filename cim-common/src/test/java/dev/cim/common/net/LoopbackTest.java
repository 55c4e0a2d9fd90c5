package dev.cim.common.net;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LoopbackTest {

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "127.1.2.3", "localhost", "LocalHost", "::1", "[::1]", "0:0:0:0:0:0:0:1",
        "::ffff:127.0.0.1", " 127.0.0.1 "})
    void loopbackLiteralsAndLocalhost_areLoopback(String host) {
        assertThat(Loopback.isLoopback(host)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.0.0.0", "::", "10.0.0.5", "192.168.1.1", "128.0.0.1", "example.com", "localhost.example",
        "my-laptop", "", "127.0.0.1.nip.io", "::2"})
    void everyOtherHost_isNot_evenANameThatMightResolveToLoopback(String host) {
        assertThat(Loopback.isLoopback(host)).isFalse();
    }

    @org.junit.jupiter.api.Test
    void null_isNotLoopback() {
        assertThat(Loopback.isLoopback(null)).isFalse();
    }
}
