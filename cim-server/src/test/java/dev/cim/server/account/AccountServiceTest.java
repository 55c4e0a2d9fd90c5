package dev.cim.server.account;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cim.server.store.AccountStore;
import dev.cim.server.store.AttemptCounters;
import dev.cim.server.support.StepClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;

class AccountServiceTest {

    private static final String ADDRESS = "192.0.2.1";
    private static final String PASSWORD = "correct horse";

    /**
     * Accounts in maps; the same contract as the Redis store (whose keeping of the tokens used last
     * is tested on Redis, in RedisStoresTest).
     */
    static class InMemoryAccountStore implements AccountStore {
        final Map<String, String> hashes = new ConcurrentHashMap<>();
        final Map<String, String> owners = new ConcurrentHashMap<>();
        final Map<String, Map<String, Instant>> tokens = new ConcurrentHashMap<>();
        final Map<String, String> zones = new ConcurrentHashMap<>();
        int passwordReads;

        @Override
        public Map<String, String> zones(java.util.Collection<String> users) {
            Map<String, String> found = new java.util.HashMap<>();
            users.forEach(user -> {
                if (zones.containsKey(user)) {
                    found.put(user, zones.get(user));
                }
            });
            return found;
        }

        @Override
        public void setZone(String user, String zone) {
            zones.put(user, zone);
        }

        @Override
        public Optional<String> passwordHash(String user) {
            passwordReads++;
            return Optional.ofNullable(hashes.get(user));
        }

        @Override
        public Creation create(String user, String skeleton, String passwordHash) {
            String owner = owners.putIfAbsent(skeleton, user);
            if (owner != null && !owner.equals(user)) {
                return Creation.LOOKS_TAKEN;
            }
            return hashes.putIfAbsent(user, passwordHash) == null ? Creation.CREATED : Creation.EXISTS;
        }

        @Override
        public boolean replacePasswordHash(String user, String passwordHash) {
            return hashes.replace(user, passwordHash) != null;
        }

        @Override
        public Optional<String> ownerOf(String skeleton) {
            return Optional.ofNullable(owners.get(skeleton));
        }

        @Override
        public boolean exists(String user) {
            return hashes.containsKey(user);
        }

        @Override
        public void addToken(String user, String tokenHash, Instant expiresAt, int maxTokens) {
            Map<String, Instant> mine = tokens.computeIfAbsent(user, u -> new ConcurrentHashMap<>());
            mine.put(tokenHash, expiresAt);
            while (mine.size() > maxTokens) {
                mine.entrySet().stream().min(Map.Entry.comparingByValue()).ifPresent(e -> mine.remove(e.getKey()));
            }
        }

        @Override
        public boolean useToken(String user, String tokenHash, Instant now, Instant newExpiry) {
            Map<String, Instant> mine = tokens.computeIfAbsent(user, u -> new ConcurrentHashMap<>());
            Instant expiry = mine.get(tokenHash);
            if (expiry == null || !expiry.isAfter(now)) {
                mine.remove(tokenHash);
                return false;
            }
            mine.put(tokenHash, newExpiry);
            return true;
        }

        @Override
        public long revokeTokens(String user) {
            Map<String, Instant> removed = tokens.remove(user);
            return removed == null ? 0 : removed.size();
        }

        @Override
        public boolean revokeToken(String user, String tokenHash) {
            Map<String, Instant> mine = tokens.get(user);
            return mine != null && mine.remove(tokenHash) != null;
        }
    }

    /** Counters in a map (that {@link #get} forgets after {@code keep} is the Redis TTL's job, tested with Redis). */
    static final class InMemoryCounters implements AttemptCounters {
        final Map<String, Count> counts = new ConcurrentHashMap<>();
        final java.util.concurrent.atomic.AtomicInteger clears = new java.util.concurrent.atomic.AtomicInteger();

        @Override
        public Count get(String subject) {
            return counts.getOrDefault(subject, Count.NONE);
        }

        @Override
        public Count add(String subject, Instant now, Duration keep) {
            // Counting on after a count's keep has passed starts again, as after Redis's TTL.
            return counts.merge(subject, new Count(1, now),
                    (a, b) -> a.last().plus(keep).isAfter(now) ? new Count(a.attempts() + 1, now) : b);
        }

        @Override
        public void clear(String subject) {
            clears.incrementAndGet();
            counts.remove(subject);
        }
    }

    private final StepClock clock = new StepClock();
    private final InMemoryAccountStore store = new InMemoryAccountStore();
    private final InMemoryCounters counters = new InMemoryCounters();
    private final LoginThrottle.Policy throttlePolicy =
            new LoginThrottle.Policy(5, Duration.ofMinutes(1), 20, Duration.ofMinutes(15), 20, Duration.ofHours(1));
    private AccountService accounts = service(store, true);

    private AccountService service(AccountStore accountStore, boolean open) {
        return new AccountService(accountStore, new BCryptPasswordEncoder(4),
                new SessionTokens(accountStore, Duration.ofDays(30), 3, clock),
                new LoginThrottle(counters, throttlePolicy, clock), new AccountService.Policy(open, 8));
    }

    private LoginOutcome login(String user, String password) {
        return accounts.login(new AccountService.Attempt(user, password, "", ADDRESS));
    }

    private LoginOutcome loginWithToken(String user, String token) {
        return accounts.login(new AccountService.Attempt(user, "", token, ADDRESS));
    }

    private static String reason(LoginOutcome outcome) {
        assertThat(outcome).isInstanceOf(LoginOutcome.Refused.class);
        return ((LoginOutcome.Refused) outcome).reason();
    }

    private static String token(LoginOutcome outcome) {
        assertThat(outcome).isInstanceOf(LoginOutcome.Accepted.class);
        return ((LoginOutcome.Accepted) outcome).token();
    }

    @Test
    void login_unknownUser_createsTheAccountWithAHashNotThePassword_andGivesAToken() {
        LoginOutcome outcome = login("alice", PASSWORD);

        assertThat(outcome).isInstanceOfSatisfying(LoginOutcome.Accepted.class, a -> {
            assertThat(a.user()).isEqualTo("alice");
            assertThat(a.created()).isTrue();
            assertThat(a.token()).hasSizeGreaterThanOrEqualTo(43);
        });
        assertThat(store.hashes.get("alice")).startsWith("$2a$04$").doesNotContain(PASSWORD);
        assertThat(store.tokens.get("alice").keySet()).as("only a hash of the token is kept")
                .doesNotContain(token(outcome));
        assertThat(accounts.exists("alice")).isTrue();
    }

    @Test
    void login_knownUserWithTheRightPassword_isAcceptedWithoutCreating() {
        login("alice", PASSWORD);

        assertThat(login("alice", PASSWORD)).isInstanceOfSatisfying(LoginOutcome.Accepted.class,
                a -> assertThat(a.created()).isFalse());
    }

    @Test
    void login_knownUserWithAWrongPassword_isRefused_andTheHashIsUnchanged() {
        login("alice", PASSWORD);
        String hash = store.hashes.get("alice");

        assertThat(reason(login("alice", "guessing"))).isEqualTo("wrong password for alice");
        assertThat(store.hashes.get("alice")).isEqualTo(hash);
    }

    @Test
    void login_invalidUserName_isRefusedWithoutTouchingTheStore() {
        assertThat(login("everyone", PASSWORD)).isInstanceOf(LoginOutcome.Refused.class);
        assertThat(login("bad name", PASSWORD)).isInstanceOf(LoginOutcome.Refused.class);
        assertThat(login("alice.", PASSWORD)).isInstanceOf(LoginOutcome.Refused.class);
        assertThat(store.hashes).isEmpty();
    }

    @Test
    void login_emptyOrOverlongPassword_isRefused() {
        assertThat(login("alice", "")).isInstanceOf(LoginOutcome.Refused.class);
        assertThat(reason(login("alice", "x".repeat(AccountService.MAX_PASSWORD_BYTES + 1)))).contains("72 bytes");
        assertThat(login("alice", "x".repeat(AccountService.MAX_PASSWORD_BYTES)))
                .isInstanceOf(LoginOutcome.Accepted.class);
    }

    @Test
    void login_newAccountWithAShortPassword_isRefused_sayingTheMinimum() {
        assertThat(reason(login("alice", "1234567"))).contains("too short").contains("at least 8 characters");
        assertThat(store.hashes).isEmpty();
        assertThat(login("alice", "12345678")).isInstanceOf(LoginOutcome.Accepted.class);
    }

    @Test
    void login_nameInAnyCase_isTheSameAccount() {
        assertThat(login("Alice", PASSWORD)).isInstanceOfSatisfying(LoginOutcome.Accepted.class, a -> {
            assertThat(a.user()).isEqualTo("alice");
            assertThat(a.created()).isTrue();
        });

        assertThat(login("ALICE", PASSWORD)).isInstanceOfSatisfying(LoginOutcome.Accepted.class, a -> {
            assertThat(a.user()).isEqualTo("alice");
            assertThat(a.created()).isFalse();
        });
        assertThat(reason(login("aLiCe", "another password"))).isEqualTo("wrong password for alice");
        assertThat(store.hashes).containsOnlyKeys("alice");
    }

    @Test
    void login_lookAlikeOfAnExistingName_isRefused_namingTheOriginal() {
        login("alice", PASSWORD);

        for (String lookAlike : new String[] {"a1ice", "al.ice", "a_lice", "A1ICE"}) {
            assertThat(reason(login(lookAlike, PASSWORD))).as(lookAlike)
                    .contains("looks too much like the existing user alice");
        }
        assertThat(store.hashes).containsOnlyKeys("alice");
        assertThat(login("alicia", PASSWORD)).isInstanceOf(LoginOutcome.Accepted.class);
    }

    @Test
    void login_registrationClosed_refusesAnUnknownName_butRegisterCreatesIt() {
        accounts = service(store, false);

        assertThat(reason(login("alice", PASSWORD))).contains("registration is closed");
        assertThat(store.hashes).isEmpty();

        assertThat(accounts.register("Alice", PASSWORD)).isEmpty();
        assertThat(login("alice", PASSWORD)).isInstanceOfSatisfying(LoginOutcome.Accepted.class,
                a -> assertThat(a.created()).isFalse());
        assertThat(accounts.register("alice", PASSWORD)).get().asString().contains("exists already");
        assertThat(accounts.register("a1ice", PASSWORD)).get().asString().contains("looks too much like");
        assertThat(accounts.register("bob", "short")).get().asString().contains("at least 8");
    }

    @Test
    void login_afterFiveFailures_waitsOneSecondThenTwiceAsLong_withoutCheckingThePassword() {
        login("alice", PASSWORD);
        for (int i = 0; i < 5; i++) {
            assertThat(reason(login("alice", "guess " + i))).isEqualTo("wrong password for alice");
        }
        int reads = store.passwordReads;

        LoginOutcome throttled = login("alice", PASSWORD);

        assertThat(throttled).isInstanceOfSatisfying(LoginOutcome.Refused.class, r -> {
            assertThat(r.reason()).contains("5 failed logins for alice").contains("try again in 1 s");
            assertThat(r.retryAfter()).isEqualTo(Duration.ofSeconds(1));
        });
        assertThat(store.passwordReads).as("refused before the password was looked at").isEqualTo(reads);

        clock.advance(Duration.ofSeconds(1));
        assertThat(reason(login("alice", "guess 5"))).isEqualTo("wrong password for alice");
        assertThat(login("alice", PASSWORD)).isInstanceOfSatisfying(LoginOutcome.Refused.class,
                r -> assertThat(r.retryAfter()).isEqualTo(Duration.ofSeconds(2)));
    }

    @Test
    void aLoginWithNoFailuresCounted_clearsNothing_oneWithSome_clearsThem() {
        token(login("tessa", "password-1"));
        token(login("tessa", "password-1"));
        assertThat(counters.clears).as("nothing to forget: no write").hasValue(0);

        reason(login("tessa", "wrong-password"));
        token(login("tessa", "password-1"));

        assertThat(counters.clears).hasValue(1);
        assertThat(counters.get("login:u:tessa")).isEqualTo(AttemptCounters.Count.NONE);
    }

    @Test
    void login_afterTwentyFailures_isLockedForTheLockDuration_andASuccessForgetsTheFailures() {
        login("alice", PASSWORD);
        for (int i = 0; i < 20; i++) {
            clock.advance(Duration.ofMinutes(1)); // past every delay
            login("alice", "guess " + i);
        }

        assertThat(login("alice", PASSWORD)).isInstanceOfSatisfying(LoginOutcome.Refused.class, r -> {
            assertThat(r.reason()).contains("locked after 20 failed logins");
            assertThat(r.retryAfter()).isEqualTo(Duration.ofMinutes(15));
        });
        clock.advance(Duration.ofMinutes(15));
        assertThat(login("alice", PASSWORD)).isInstanceOf(LoginOutcome.Accepted.class);
        assertThat(counters.counts).doesNotContainKey("login:u:alice");
    }

    @Test
    void login_failuresFromOneAddressOverManyNames_throttleThatAddress_atFourTimesAnAccountsThresholds() {
        for (int i = 0; i < 20; i++) {
            accounts.register("user" + i, PASSWORD);
            login("user" + i, "wrong password");
        }

        LoginOutcome outcome = login("victim", PASSWORD);

        assertThat(reason(outcome)).contains("failed logins from your address");
        assertThat(accounts.login(new AccountService.Attempt("victim", PASSWORD, "", "198.51.100.7")))
                .as("another address is not slowed").isInstanceOf(LoginOutcome.Accepted.class);
    }

    @Test
    void login_registrationsFromOneAddress_areCappedUntilItRests() {
        for (int i = 0; i < 20; i++) {
            assertThat(login("user" + i, PASSWORD)).as("account %d", i).isInstanceOf(LoginOutcome.Accepted.class);
        }

        assertThat(login("user20", PASSWORD)).isInstanceOfSatisfying(LoginOutcome.Refused.class, r -> {
            assertThat(r.reason()).contains("too many new accounts from your address");
            assertThat(r.retryAfter()).isEqualTo(Duration.ofHours(1));
        });
        assertThat(login("user0", PASSWORD)).as("existing accounts still log in").isInstanceOf(LoginOutcome.Accepted.class);
        clock.advance(Duration.ofHours(1));
        assertThat(login("user20", PASSWORD)).isInstanceOf(LoginOutcome.Accepted.class);
    }

    @Test
    void login_firstLoginsArrivingTogetherFromOneAddress_createNoMoreThanTheCap() throws Exception {
        int logins = 60;
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<LoginOutcome>> outcomes = new ArrayList<>();
            for (int i = 0; i < logins; i++) {
                String user = "burst" + i;
                outcomes.add(pool.submit(() -> {
                    go.await();
                    return login(user, PASSWORD);
                }));
            }
            go.countDown();
            int created = 0;
            for (Future<LoginOutcome> outcome : outcomes) {
                LoginOutcome o = outcome.get(60, TimeUnit.SECONDS);
                if (o instanceof LoginOutcome.Accepted) {
                    created++;
                } else {
                    assertThat(reason(o)).contains("too many new accounts from your address (at most 20)");
                }
            }

            assertThat(created).isEqualTo(20);
            assertThat(store.hashes).hasSize(20);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void login_withToken_needsNoPassword_andExtendsTheToken() {
        String token = token(login("alice", PASSWORD));
        int reads = store.passwordReads;

        clock.advance(Duration.ofDays(29));
        assertThat(loginWithToken("Alice", token)).isEqualTo(new LoginOutcome.Accepted("alice", false, ""));
        clock.advance(Duration.ofDays(29));
        assertThat(loginWithToken("alice", token)).as("each use renews it").isInstanceOf(LoginOutcome.Accepted.class);
        assertThat(store.passwordReads).isEqualTo(reads);
    }

    @Test
    void login_withAWrongExpiredOrRevokedToken_isRefused() {
        String token = token(login("alice", PASSWORD));
        String other = token(login("bob", PASSWORD));

        assertThat(reason(loginWithToken("alice", other))).contains("has expired or was ended");
        assertThat(reason(loginWithToken("alice", "x".repeat(500)))).contains("has expired or was ended");

        clock.advance(Duration.ofDays(30));
        assertThat(loginWithToken("alice", token)).as("30 days unused").isInstanceOf(LoginOutcome.Refused.class);

        String fresh = token(login("alice", PASSWORD));
        assertThat(accounts.revokeSessions("ALICE")).isEqualTo(1);
        assertThat(loginWithToken("alice", fresh)).isInstanceOf(LoginOutcome.Refused.class);
    }

    @Test
    void login_lostRaceForAFirstLogin_isCheckedAgainstTheWinnersPassword() {
        InMemoryAccountStore racing = new InMemoryAccountStore() {
            private boolean first = true;

            @Override
            public Optional<String> passwordHash(String user) {
                if (first) { // The winner creates the account between our read and our create.
                    first = false;
                    hashes.put(user, new BCryptPasswordEncoder(4).encode("the winner's"));
                    owners.put("alice", user);
                    return Optional.empty();
                }
                return super.passwordHash(user);
            }
        };
        accounts = service(racing, true);

        assertThat(reason(login("alice", "the loser's"))).isEqualTo("wrong password for alice");
    }

    @Test
    void changePassword_replacesThePasswordAndEndsEverySession() {
        String token = token(login("alice", PASSWORD));

        assertThat(accounts.changePassword("Alice", "a new password")).isEmpty();

        assertThat(reason(login("alice", PASSWORD))).isEqualTo("wrong password for alice");
        assertThat(loginWithToken("alice", token)).isInstanceOf(LoginOutcome.Refused.class);
        assertThat(login("alice", "a new password")).isInstanceOf(LoginOutcome.Accepted.class);
    }

    @Test
    void changePassword_refusesAMissingAccountAndAShortPassword() {
        login("alice", PASSWORD);

        assertThat(accounts.changePassword("bob", "a new password")).contains("there is no account bob");
        assertThat(accounts.changePassword("alice", "short")).hasValueSatisfying(
                problem -> assertThat(problem).startsWith("the password is too short"));
        assertThat(login("alice", PASSWORD)).isInstanceOf(LoginOutcome.Accepted.class);
    }
}
