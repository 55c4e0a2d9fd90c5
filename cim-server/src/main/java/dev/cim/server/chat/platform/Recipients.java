package dev.cim.server.chat.platform;

import dev.cim.server.store.GroupStore;
import java.util.Collection;
import java.util.Map;
import java.util.function.Function;
import java.util.Set;

/**
 * Who can be sent to, asked before a message is kept for later: users with an account (remembered,
 * see {@link KnownUsers}), and the groups a sender is a member of. Blocks on the store; call it off
 * the I/O threads.
 */
public final class Recipients {

    private final KnownUsers accounts;
    private final GroupStore groups;
    private final Function<Collection<String>, Map<String, String>> zones;

    /**
     * @param zones the time zone each of some users set (of those who set one), in one round trip
     */
    public Recipients(KnownUsers accounts, GroupStore groups, Function<Collection<String>, Map<String, String>> zones) {
        this.accounts = accounts;
        this.groups = groups;
        this.zones = zones;
    }

    /** The time zone each of {@code users} (canonical names) set, for those who set one. */
    public Map<String, String> zones(Collection<String> users) {
        return users.isEmpty() ? Map.of() : zones.apply(users);
    }

    /** Those of {@code users} (canonical names) without an account; see {@link KnownUsers#withoutAccount}. */
    public Set<String> withoutAccount(Collection<String> users) {
        return accounts.withoutAccount(users);
    }

    /** True when {@code user} is a member of group {@code name} (without its '#'). */
    public boolean inGroup(String name, String user) {
        return groups.isMember(name, user);
    }
}
