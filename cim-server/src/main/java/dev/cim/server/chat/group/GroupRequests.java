package dev.cim.server.chat.group;

import dev.cim.common.protocol.ChatRules;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.UserNames;
import dev.cim.common.protocol.proto.Envelope;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.Group;
import dev.cim.common.protocol.proto.GroupNews;
import dev.cim.common.protocol.proto.GroupReply;
import dev.cim.common.protocol.proto.GroupRequest;
import dev.cim.server.chat.platform.KnownUsers;
import dev.cim.server.chat.session.Replies;
import dev.cim.server.chat.session.Session;
import dev.cim.server.store.GroupStore;
import dev.cim.server.store.StoreFullException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a user asks of groups: create, invite, join, leave, kick, list their groups, list a group's
 * members. Each runs on the group's lane (the user's, for their list), in order with the group's
 * posts; a change is answered to the terminal that asked and told to every terminal of the users it
 * concerns. Names follow the rules of user names, and one that reads like a group's name already is
 * refused, as for users.
 */
final class GroupRequests {

    private static final Logger log = LoggerFactory.getLogger(GroupRequests.class);
    /** Member names per reply frame: 1,000 names of up to 32 characters stay far under a frame. */
    private static final int NAMES_PER_FRAME = 1000;

    private final GroupStore store;
    private final KnownUsers accounts;
    private final GroupFeeds feeds;
    private final GroupNewsTeller news;
    private final GroupSettings settings;
    private final Clock clock;

    GroupRequests(GroupStore store, KnownUsers accounts, GroupFeeds feeds, GroupNewsTeller news, GroupSettings settings,
            Clock clock) {
        this.store = store;
        this.accounts = accounts;
        this.feeds = feeds;
        this.news = news;
        this.settings = settings;
        this.clock = clock;
    }

    /** Answers {@code request}, request {@code id} of {@code session}. */
    void handle(Session session, long id, GroupRequest request) {
        String user = session.user();
        switch (request.getActionCase()) {
            case CREATE -> onGroup(session, id, request.getCreate().getName(), name -> create(session, id, name,
                    request.getCreate().getOpen(), request.getCreate().getMembersList()));
            case INVITE -> onGroup(session, id, request.getInvite().getName(), name -> invite(session, id, name,
                    request.getInvite().getUsersList()));
            case JOIN -> onGroup(session, id, request.getJoin(), name -> join(session, id, name));
            case LEAVE -> onGroup(session, id, request.getLeave(), name -> change(session, id, name,
                    store.remove(name, user, List.of(user)), GroupNews.Kind.LEFT, List.of()));
            case KICK -> onGroup(session, id, request.getKick().getName(), name -> kick(session, id, name,
                    request.getKick().getUsersList()));
            case LIST -> feeds.lane(user).execute(() -> guarded(session, id, () -> list(session, id)));
            case MEMBERS -> onGroup(session, id, request.getMembers(), name -> members(session, id, name));
            default -> answer(session, Envelopes.error(id, ErrorReply.Code.BAD_REQUEST,
                    "a group request needs an action (expected: create, invite, join, leave, kick, list or members)",
                    false));
        }
    }

    private interface Work {
        void run(String name);
    }

    /** Checks the group's name, then runs {@code work} with its canonical form on the group's lane. */
    private void onGroup(Session session, long id, String given, Work work) {
        String name = given.startsWith("#") ? given.substring(1) : given;
        Optional<String> problem = ChatRules.groupProblem(name);
        if (problem.isPresent()) {
            answer(session, Envelopes.error(id, ErrorReply.Code.BAD_REQUEST, problem.get(), false));
            return;
        }
        String canonical = UserNames.canonical(name);
        feeds.lane(canonical).execute(() -> guarded(session, id, () -> work.run(canonical)));
    }

    /** Runs {@code work}; a failure of the store answers request {@code id}. */
    private void guarded(Session session, long id, Runnable work) {
        try {
            work.run();
        } catch (RuntimeException e) {
            log.error("A group request of {} failed: {}", session, e.toString());
            answer(session, Envelopes.error(id, ErrorReply.Code.INTERNAL, StoreFullException.describe(e) + "; try again",
                    false));
        }
    }

    private void create(Session session, long id, String name, boolean open, List<String> given) {
        String owner = session.user();
        List<String> refused = new ArrayList<>();
        Set<String> members = checkedUsers(name, given, owner, refused);
        if (!store.reserve(owner, name, settings.maxGroupsPerUser())) {
            members.forEach(member -> store.release(member, name));
            answer(session, Envelopes.error(id, ErrorReply.Code.BAD_REQUEST, "not created: " + tooManyGroups(owner),
                    false));
            return;
        }
        if (members.size() + 1 > settings.maxMembers()) {
            members.forEach(member -> store.release(member, name));
            store.release(owner, name);
            answer(session, Envelopes.error(id, ErrorReply.Code.BAD_REQUEST, "not created: " + (members.size() + 1)
                    + " members (expected: at most " + settings.maxMembers() + ", cim.server.groups.max-members)", false));
            return;
        }
        GroupStore.Creation creation = store.create(name, UserNames.skeleton(name), owner, open, members, clock.millis());
        if (creation instanceof GroupStore.Creation.Taken taken) {
            answer(session, Envelopes.error(id, ErrorReply.Code.BAD_REQUEST, "not created: "
                    + (taken.existing().equals(name) ? "#" + name + " exists already"
                    : "#" + name + " reads too much like #" + taken.existing() + ", which exists"), false));
            return;
        }
        GroupStore.Info info = ((GroupStore.Creation.Created) creation).group();
        List<String> all = new ArrayList<>(members.size() + 1);
        all.add(owner);
        all.addAll(members);
        // Told (and the feed queued on this lane) before the answer: a post the answer lets the
        // creator send is queued behind the feed, so it reaches every terminal but the sending one.
        news.tell(name, news(GroupNews.Kind.CREATED, info, all, owner), all, session);
        reply(session, id, group(info), refused);
    }

    private void invite(Session session, long id, String name, List<String> given) {
        List<String> refused = new ArrayList<>();
        Set<String> users = checkedUsers(name, given, null, refused);
        if (users.isEmpty()) {
            answer(session, Envelopes.error(id, ErrorReply.Code.BAD_REQUEST, "nobody invited: "
                    + (refused.isEmpty() ? "no user named (expected: :invite #group user...)" : String.join("; ", refused)),
                    false));
            return;
        }
        change(session, id, name, store.add(name, session.user(), users, settings.maxMembers()), GroupNews.Kind.JOINED,
                refused);
    }

    private void join(Session session, long id, String name) {
        String user = session.user();
        if (!store.reserve(user, name, settings.maxGroupsPerUser())) {
            answer(session, Envelopes.error(id, ErrorReply.Code.BAD_REQUEST, "not joined: " + tooManyGroups(user),
                    false));
            return;
        }
        change(session, id, name, store.add(name, user, List.of(user), settings.maxMembers()), GroupNews.Kind.JOINED,
                List.of());
    }

    private void kick(Session session, long id, String name, List<String> given) {
        List<String> users = new ArrayList<>();
        given.forEach(u -> users.add(UserNames.canonical(u.startsWith("@") ? u.substring(1) : u)));
        if (users.isEmpty()) {
            answer(session, Envelopes.error(id, ErrorReply.Code.BAD_REQUEST,
                    "nobody removed (expected: :kick #group user...)", false));
            return;
        }
        change(session, id, name, store.remove(name, session.user(), users), GroupNews.Kind.REMOVED, List.of());
    }

    /**
     * The users named, canonical, who have an account and room for one more group, each with a place
     * taken for {@code group} ({@link GroupStore#reserve}); the others are added to {@code refused}
     * with the reason. {@code except} (the creator) is left out.
     */
    private Set<String> checkedUsers(String group, List<String> given, String except, List<String> refused) {
        Set<String> users = new LinkedHashSet<>();
        for (String raw : given) {
            String name = raw.startsWith("@") ? raw.substring(1) : raw;
            Optional<String> problem = UserNames.problem(name);
            if (problem.isPresent()) {
                refused.add(name + ": " + problem.get());
            } else if (!UserNames.canonical(name).equals(except)) {
                users.add(UserNames.canonical(name));
            }
        }
        Set<String> unknown = users.isEmpty() ? Set.of() : accounts.withoutAccount(users);
        for (String user : unknown) {
            users.remove(user);
            refused.add(user + ": no user named " + user);
        }
        for (String user : List.copyOf(users)) {
            if (!store.reserve(user, group, settings.maxGroupsPerUser())) {
                users.remove(user);
                refused.add(user + ": " + tooManyGroups(user));
            }
        }
        return users;
    }

    /** Why {@code user}, refused a place by {@link GroupStore#reserve}, may join no more groups. */
    private String tooManyGroups(String user) {
        int max = settings.maxGroupsPerUser();
        return user + " is in " + max + " groups, counting those being joined (expected: at most " + max
                + ", cim.server.groups.max-groups-per-user)";
    }

    /** Answers a change of membership, and tells everyone it concerns. */
    private void change(Session session, long id, String name, GroupStore.Change change, GroupNews.Kind kind,
            List<String> refused) {
        if (change instanceof GroupStore.Change.NoGroup) {
            answer(session, Envelopes.error(id, ErrorReply.Code.NOT_FOUND, "no group #" + name, false));
            return;
        }
        if (change instanceof GroupStore.Change.Refused r) {
            answer(session, Envelopes.error(id, ErrorReply.Code.BAD_REQUEST, r.reason(), false));
            return;
        }
        GroupStore.Change.Done done = (GroupStore.Change.Done) change;
        boolean ended = done.group().members() == 0;
        if (!done.changed().isEmpty()) { // told before the answer, as at the creation
            List<String> members = ended ? List.of() : store.members(name).orElse(List.of());
            news.tell(name, news(kind, done.group(), done.changed(), session.user()), members, session);
        }
        reply(session, id, ended ? Group.newBuilder().setName(name).build() : group(done.group()), refused);
    }

    private void list(Session session, long id) {
        List<Group> groups = new ArrayList<>();
        for (String name : new java.util.TreeSet<>(store.groupsOf(session.user()))) {
            if (store.isMember(name, session.user())) {
                store.info(name).ifPresent(info -> groups.add(group(info)));
            }
        }
        answer(session, Envelopes.builder(id).setGroupReply(GroupReply.newBuilder().addAllGroups(groups)).build());
    }

    private void members(Session session, long id, String name) {
        Optional<GroupStore.Info> info = store.info(name);
        if (info.isEmpty()) {
            answer(session, Envelopes.error(id, ErrorReply.Code.NOT_FOUND, "no group #" + name, false));
            return;
        }
        if (!info.get().open() && !store.isMember(name, session.user())) {
            answer(session, Envelopes.error(id, ErrorReply.Code.BAD_REQUEST, "you are not a member of #" + name
                    + ", which is not open: its members are its own", false));
            return;
        }
        List<String> members = store.members(name).orElse(List.of());
        Replies replies = new Replies();
        for (int from = 0; from == 0 || from < members.size(); from += NAMES_PER_FRAME) {
            int to = Math.min(members.size(), from + NAMES_PER_FRAME);
            replies.add(session, Envelopes.builder(id).setGroupReply(GroupReply.newBuilder()
                    .addGroups(group(info.get()).toBuilder().addAllMembers(members.subList(from, to)))
                    .setMore(to < members.size())).build());
        }
        replies.send();
    }

    private static Group group(GroupStore.Info info) {
        return Group.newBuilder().setName(info.name()).setOwner(info.owner()).setOpen(info.open())
                .setMemberCount(info.members()).setCreatedMillis(info.createdMillis()).build();
    }

    private static GroupNews news(GroupNews.Kind kind, GroupStore.Info info, List<String> users, String by) {
        return GroupNews.newBuilder().setKind(kind).setGroup(group(info)).addAllUsers(users).setBy(by).build();
    }

    private void reply(Session session, long id, Group group, List<String> refused) {
        answer(session, Envelopes.builder(id).setGroupReply(GroupReply.newBuilder().addGroups(group)
                .addAllRefused(refused)).build());
    }

    private static void answer(Session session, Envelope envelope) {
        Replies one = new Replies();
        one.add(session, envelope);
        one.send();
    }
}
