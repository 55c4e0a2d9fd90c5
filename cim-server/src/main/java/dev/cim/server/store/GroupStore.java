package dev.cim.server.store;

import dev.cim.common.protocol.proto.Chat;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Groups: their names, owners and members, and each group's log ({@link Conversation#group}), the
 * messages posted to it, which is both the group's history and where its members read what they
 * missed ({@link ConversationLog}). A message to a group is stored once, however many members it
 * has; each member has a cursor, the position up to which they acknowledged the log.
 *
 * <p>Every step on one group touches that group's keys only (one hash tag). What a user is in is
 * also kept beside the user ({@link #groupsOf}), written before a member joins and after one leaves,
 * so that it holds every group the user is in and perhaps one they just left: read it through
 * {@link #isMember} where it matters.
 *
 * <p>Implementations block (they call the store); callers run them off the I/O threads.
 */
public interface GroupStore {

    /**
     * What a group is.
     *
     * @param version counts the changes to its membership, so that a cached member list can tell it
     *                is out of date
     */
    record Info(String name, String owner, boolean open, int members, long createdMillis, long version) {
    }

    /** What {@link #create} did. */
    sealed interface Creation {
        record Created(Info group) implements Creation {
        }

        /** The name, or one that reads alike, is some group's already. */
        record Taken(String existing) implements Creation {
        }
    }

    /** What a change of membership did. */
    sealed interface Change {
        /**
         * Done: {@code changed} are the users added or removed (those already in, or not in, are
         * left out), and the group is now as {@code group} says.
         */
        record Done(Info group, List<String> changed) implements Change {
        }

        /** No such group. */
        record NoGroup() implements Change {
        }

        /** Refused, with one line for the user. */
        record Refused(String reason) implements Change {
        }
    }

    /** A message posted to a group, and where it is in the group's log. */
    record Post(String position, String previous, long version) {
    }

    /** What {@link #post} did. */
    sealed interface Posting {
        record Posted(Post post) implements Posting {
        }

        /** The sender is not a member (or there is no such group). */
        record NotMember() implements Posting {
        }
    }

    /**
     * Makes a group owned by {@code owner}, with {@code owner} and {@code members} in it, unless a
     * group of that name or skeleton exists.
     */
    Creation create(String name, String skeleton, String owner, boolean open, Collection<String> members,
            long nowMillis);

    /** The group, if it exists. */
    Optional<Info> info(String name);

    /**
     * Adds {@code users}: done by {@code by}, who must be a member (or, joining alone, the group
     * must be open); refused past {@code maxMembers}.
     */
    Change add(String name, String by, Collection<String> users, int maxMembers);

    /**
     * Removes {@code users}: by the owner, or a member removing themself. An owner who leaves hands
     * the group to the member who joined first after them; the last member's leaving ends the group.
     */
    Change remove(String name, String by, Collection<String> users);

    /** The members, sorted by name, if the group exists. */
    Optional<List<String>> members(String name);

    boolean isMember(String name, String user);

    /**
     * The groups {@code user} is in, as kept beside the user: every one they are in, and perhaps one
     * they just left (ask {@link #isMember}).
     */
    Set<String> groupsOf(String user);

    /**
     * Takes a place for group {@code name} among {@code user}'s groups before they are added to it:
     * true when they may be (they are in it already, a join of it is under way, or they are in and
     * joining fewer than {@code maxGroups}), false when they are not. Counted and taken in one atomic
     * step on the user's keys, so that joins of one user to different groups at the same moment, on
     * different lanes or nodes, cannot pass the limit together. {@link #create} and {@link #add} give
     * the place back when they are done, whatever they did; {@link #release} gives back one not used.
     * A place is kept at most a minute, so that one taken by a process that died is given back.
     */
    boolean reserve(String user, String name, int maxGroups);

    /** Gives back {@code user}'s place for group {@code name}, taken by {@link #reserve} and not used. */
    void release(String user, String name);

    /**
     * Appends {@code chat} to the group's log, if its sender is a member, in one atomic step; the log
     * keeps the messages of the last {@code retention}, at most {@code maxEntries}.
     */
    Posting post(String name, Chat chat, long nowMillis, java.time.Duration retention, long maxEntries);

    /** The position of the newest message in the group's log; empty when there is none. */
    Optional<String> last(String name);

    /** The position up to which {@code user} acknowledged the log; empty when never. */
    Optional<String> cursor(String name, String user);

    /** Moves the cursors given (user to position), each only forward. */
    void advance(String name, Map<String, String> cursors);
}
