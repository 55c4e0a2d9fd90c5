package dev.cim.server.account;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;

class RememberedPasswordsTest {

    /** BCrypt that counts its checks. */
    private static final class Counting implements PasswordEncoder {
        final PasswordEncoder bcrypt = new BCryptPasswordEncoder(4);
        final AtomicInteger checks = new AtomicInteger();

        @Override
        public String encode(CharSequence raw) {
            return bcrypt.encode(raw);
        }

        @Override
        public boolean matches(CharSequence raw, String encoded) {
            checks.incrementAndGet();
            return bcrypt.matches(raw, encoded);
        }
    }

    private final Counting slow = new Counting();
    private final AtomicLong nanos = new AtomicLong();
    private final RememberedPasswords passwords = new RememberedPasswords(slow, Duration.ofMinutes(20), 2,
            nanos::get);

    @Test
    void theSamePasswordAgain_isMatchedWithoutTheHash_untilTheTtl() {
        String hash = slow.encode("correct horse"); // made elsewhere: another node, an earlier run

        assertThat(passwords.matches("correct horse", hash)).isTrue();
        assertThat(passwords.matches("correct horse", hash)).isTrue();
        assertThat(slow.checks).as("the second from memory").hasValue(1);

        nanos.addAndGet(Duration.ofMinutes(20).toNanos());
        assertThat(passwords.matches("correct horse", hash)).isTrue();
        assertThat(slow.checks).as("past the ttl, hashed again").hasValue(2);
    }

    @Test
    void aHashMadeHere_isRememberedAsMatchingItsPassword() {
        String hash = passwords.encode("correct horse");

        assertThat(passwords.matches("correct horse", hash)).isTrue();
        assertThat(slow.checks).hasValue(0);
    }

    @Test
    void aWrongPassword_alwaysCostsTheHash_andIsNeverRemembered() {
        String hash = passwords.encode("correct horse");

        assertThat(passwords.matches("wrong horse", hash)).isFalse();
        assertThat(passwords.matches("wrong horse", hash)).isFalse();
        assertThat(slow.checks).hasValue(2);
        assertThat(passwords.matches("correct horse", hash)).isTrue();
        assertThat(slow.checks).hasValue(2);
    }

    @Test
    void aNewHash_isNeverMatchedFromMemory() {
        String old = slow.encode("correct horse");
        passwords.matches("correct horse", old);
        String changed = slow.encode("battery staple");

        assertThat(passwords.matches("correct horse", changed)).isFalse();
        assertThat(passwords.matches("battery staple", changed)).isTrue();
        assertThat(slow.checks).hasValue(3);
    }

    @Test
    void atMostSizeAreRemembered_theOnesPushedOutAreHashedAgain() {
        List<String> hashes = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String password = "password-" + i;
            hashes.add(slow.encode(password));
            passwords.matches(password, hashes.get(i));
        }
        assertThat(passwords.size()).isBetween(1, 2);
        assertThat(slow.checks).hasValue(5);

        for (int i = 0; i < 5; i++) {
            assertThat(passwords.matches("password-" + i, hashes.get(i))).isTrue();
        }
        assertThat(slow.checks).as("at least three of five were pushed out").hasValueBetween(8, 10);
    }

    @Test
    void noTtlOrNoRoom_isRefused() {
        assertThatThrownBy(() -> new RememberedPasswords(slow, Duration.ZERO, 1, nanos::get))
                .hasMessageContaining("expected: > 0");
        assertThatThrownBy(() -> new RememberedPasswords(slow, Duration.ofMinutes(1), 0, nanos::get))
                .hasMessageContaining("expected: 1 to");
    }
}
