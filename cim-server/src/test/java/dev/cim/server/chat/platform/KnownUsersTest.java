package dev.cim.server.chat.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KnownUsersTest {

    private final Set<String> accounts = new HashSet<>(Set.of("alice", "bob", "carol"));
    private final List<Set<String>> asked = new ArrayList<>();

    private Set<String> existing(Collection<String> users) {
        asked.add(Set.copyOf(users));
        Set<String> found = new HashSet<>(users);
        found.retainAll(accounts);
        return found;
    }

    @Test
    void namesNotKnown_areAskedTogether_once_andAYesIsRemembered() {
        KnownUsers known = new KnownUsers(this::existing, 100);

        assertThat(known.withoutAccount(Set.of("alice", "bob", "ghost"))).containsExactly("ghost");
        assertThat(known.withoutAccount(Set.of("alice", "bob"))).isEmpty();

        assertThat(asked).containsExactly(Set.of("alice", "bob", "ghost"));
    }

    @Test
    void aNo_isAskedAgain_sinceTheAccountMayHaveBeenMadeMeanwhile() {
        KnownUsers known = new KnownUsers(this::existing, 100);
        assertThat(known.withoutAccount(Set.of("dave"))).containsExactly("dave");

        accounts.add("dave");

        assertThat(known.withoutAccount(Set.of("dave", "alice"))).isEmpty();
        assertThat(asked).containsExactly(Set.of("dave"), Set.of("dave", "alice"));
    }

    @Test
    void pastItsCapacity_itStartsOver() {
        KnownUsers known = new KnownUsers(this::existing, 2);
        known.withoutAccount(Set.of("alice", "bob"));
        known.withoutAccount(Set.of("carol")); // three would not fit: forgets alice and bob

        known.withoutAccount(Set.of("alice"));

        assertThat(asked).containsExactly(Set.of("alice", "bob"), Set.of("carol"), Set.of("alice"));
    }
}
