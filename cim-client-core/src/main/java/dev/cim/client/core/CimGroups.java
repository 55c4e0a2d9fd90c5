package dev.cim.client.core;

import dev.cim.common.protocol.ChatRules;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.CreateGroup;
import dev.cim.common.protocol.proto.GroupRequest;
import dev.cim.common.protocol.proto.GroupUsers;
import dev.cim.common.protocol.proto.ListGroups;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * A user's groups, through their {@link CimClient} ({@link CimClient#groups()}): make one, invite
 * to it, join an open one, leave, remove others (as its owner), list them and their members. To
 * send to a group, {@link CimClient#send} to {@link Recipient#group}. Names are given with or
 * without their {@code #}. Every call is sent now, or once the connection is back, like any request;
 * a refusal fails the future with a {@link CimException} that says why.
 */
public final class CimGroups {

    private final Outbox outbox;

    CimGroups(Outbox outbox) {
        this.outbox = outbox;
    }

    /** Makes group {@code name}, owned by this user, with {@code members} besides them. */
    public CompletableFuture<GroupResult> create(String name, boolean open, Collection<String> members) {
        return request(Pending.Kind.GROUP, GroupRequest.newBuilder().setCreate(CreateGroup.newBuilder()
                .setName(bare(name)).setOpen(open).addAllMembers(members)));
    }

    /** Adds {@code users} to group {@code name} (this user must be a member). */
    public CompletableFuture<GroupResult> invite(String name, Collection<String> users) {
        return request(Pending.Kind.GROUP, GroupRequest.newBuilder().setInvite(GroupUsers.newBuilder()
                .setName(bare(name)).addAllUsers(users)));
    }

    /** Joins open group {@code name}. */
    public CompletableFuture<GroupResult> join(String name) {
        return request(Pending.Kind.GROUP, GroupRequest.newBuilder().setJoin(bare(name)));
    }

    /** Leaves group {@code name}. */
    public CompletableFuture<GroupResult> leave(String name) {
        return request(Pending.Kind.GROUP, GroupRequest.newBuilder().setLeave(bare(name)));
    }

    /** Removes {@code users} from group {@code name} (this user must own it). */
    public CompletableFuture<GroupResult> kick(String name, Collection<String> users) {
        return request(Pending.Kind.GROUP, GroupRequest.newBuilder().setKick(GroupUsers.newBuilder()
                .setName(bare(name)).addAllUsers(users)));
    }

    /** The groups this user is in, sorted by name. */
    public CompletableFuture<List<GroupInfo>> list() {
        return request(Pending.Kind.GROUP_LIST, GroupRequest.newBuilder().setList(ListGroups.getDefaultInstance()));
    }

    /** The members of group {@code name}, sorted. */
    public CompletableFuture<List<String>> members(String name) {
        return request(Pending.Kind.GROUP_MEMBERS, GroupRequest.newBuilder().setMembers(bare(name)));
    }

    private <T> CompletableFuture<T> request(Pending.Kind kind, GroupRequest.Builder request) {
        return outbox.request(kind, false, id -> Envelopes.builder(id).setGroupRequest(request).build());
    }

    private static String bare(String name) {
        Objects.requireNonNull(name, "name");
        String bare = name.startsWith("#") ? name.substring(1) : name;
        ChatRules.groupProblem(bare).ifPresent(problem -> {
            throw new IllegalArgumentException(problem);
        });
        return bare;
    }
}
