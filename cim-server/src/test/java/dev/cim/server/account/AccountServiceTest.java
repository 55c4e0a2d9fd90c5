package dev.cim.server.account;

import dev.cim.server.store.AccountStore;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;

class AccountServiceTest {

    /** Accounts in a map; the same contract as Redis' SET NX. */
    static class InMemoryAccountStore implements AccountStore {
        final Map<String, String> hashes = new ConcurrentHashMap<>();

        @Override
        public Optional<String> passwordHash(String user) {
            return Optional.ofNullable(hashes.get(user));
        }

        @Override
        public boolean createIfAbsent(String user, String passwordHash) {
            return hashes.putIfAbsent(user, passwordHash) == null;
        }

        @Override
        public boolean exists(String user) {
            return hashes.containsKey(user);
        }
    }

    private final InMemoryAccountStore store = new InMemoryAccountStore();
    private final AccountService accounts = new AccountService(store, new BCryptPasswordEncoder(4));

    @Test
    void login_unknownUser_createsTheAccountWithAHashNotThePassword() {
        LoginOutcome outcome = accounts.login("alice", "s3cret");

        assertThat(outcome).isEqualTo(new LoginOutcome.Accepted(true));
        assertThat(store.hashes.get("alice")).startsWith("$2a$04$").doesNotContain("s3cret");
        assertThat(accounts.exists("alice")).isTrue();
    }

    @Test
    void login_knownUserWithTheRightPassword_isAcceptedWithoutCreating() {
        accounts.login("alice", "s3cret");

        assertThat(accounts.login("alice", "s3cret")).isEqualTo(new LoginOutcome.Accepted(false));
    }

    @Test
    void login_knownUserWithAWrongPassword_isRefused_andTheHashIsUnchanged() {
        accounts.login("alice", "s3cret");
        String hash = store.hashes.get("alice");

        LoginOutcome outcome = accounts.login("alice", "guess");

        assertThat(outcome).isInstanceOfSatisfying(LoginOutcome.Refused.class,
                r -> assertThat(r.reason()).isEqualTo("wrong password for alice"));
        assertThat(store.hashes.get("alice")).isEqualTo(hash);
    }

    @Test
    void login_invalidUserName_isRefusedWithoutTouchingTheStore() {
        assertThat(accounts.login("everyone", "pw")).isInstanceOf(LoginOutcome.Refused.class);
        assertThat(accounts.login("bad name", "pw")).isInstanceOf(LoginOutcome.Refused.class);
        assertThat(store.hashes).isEmpty();
    }

    @Test
    void login_emptyOrOverlongPassword_isRefused() {
        assertThat(accounts.login("alice", "")).isInstanceOf(LoginOutcome.Refused.class);
        assertThat(accounts.login("alice", "x".repeat(AccountService.MAX_PASSWORD_BYTES + 1)))
                .isInstanceOf(LoginOutcome.Refused.class);
        assertThat(accounts.login("alice", "x".repeat(AccountService.MAX_PASSWORD_BYTES)))
                .isEqualTo(new LoginOutcome.Accepted(true));
    }

    @Test
    void login_lostRaceForAFirstLogin_isCheckedAgainstTheWinnersPassword() {
        AccountStore racing = new InMemoryAccountStore() {
            private boolean first = true;

            @Override
            public Optional<String> passwordHash(String user) {
                if (first) { // The winner creates the account between our read and our create.
                    first = false;
                    hashes.put(user, new BCryptPasswordEncoder(4).encode("winner"));
                    return Optional.empty();
                }
                return super.passwordHash(user);
            }
        };
        AccountService service = new AccountService(racing, new BCryptPasswordEncoder(4));

        assertThat(service.login("alice", "loser")).isInstanceOf(LoginOutcome.Refused.class);
    }
}
