package dev.cim.server.chat.schedule;

import dev.cim.common.protocol.ChatRules;
import dev.cim.common.protocol.Envelopes;
import dev.cim.common.protocol.proto.ErrorReply;
import dev.cim.common.protocol.proto.Scheduled;
import dev.cim.common.protocol.proto.ScheduledChange;
import dev.cim.server.chat.platform.LaneBatches;
import dev.cim.server.chat.platform.Platform;
import dev.cim.server.chat.platform.Recipients;
import dev.cim.server.chat.session.Replies;
import dev.cim.server.chat.session.Session;
import dev.cim.server.store.ScheduledStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Registers scheduled messages durably, in batches per lane: a lane registers every draft queued
 * since its last round trip at once, so thousands of registrations a second cost a round trip per
 * batch, not each. Drafts to users without an account, or to groups their sender is not in, are
 * refused first (they would fail only at their time, perhaps months later); the rest are registered, held if due within the window, and
 * answered, every other terminal of the user told.
 */
final class Registrations {

    /** A schedule request to answer once its message is registered. */
    private record Registering(Session session, long requestId, Scheduled draft) {
    }

    /** Where registered messages go besides the store: this node's timers, the user's terminals, the waits. */
    record Parts(ServerTimers timers, ScheduleNews news, OnlineWaits waits) {
    }

    private final ScheduledStore store;
    private final Recipients recipients;
    private final ServerTimers timers;
    private final ScheduleNews news;
    private final OnlineWaits waits;
    private final Clock clock;
    private final ScheduleSettings settings;
    private final LaneBatches<Registering> batches;

    Registrations(ScheduledStore store, Recipients recipients, Platform platform, Parts parts,
            ScheduleSettings settings) {
        this.store = store;
        this.recipients = recipients;
        this.timers = parts.timers();
        this.news = parts.news();
        this.waits = parts.waits();
        this.clock = platform.clock();
        this.settings = settings;
        this.batches = new LaneBatches<>(platform.lanes(), this::registerAll);
    }

    /** Registers {@code draft} (checked already) for {@code session}'s user, and answers request {@code requestId}. */
    void add(Session session, long requestId, Scheduled draft) {
        batches.add(session.user(), new Registering(session, requestId, draft));
    }

    /** On a lane: refuses the drafts to users without an account, registers the rest in one round trip, answers each. */
    private void registerAll(List<Registering> batch) {
        Replies replies = new Replies();
        List<Registering> registering = new ArrayList<>(batch.size());
        List<ScheduledStore.Draft> drafts = new ArrayList<>(batch.size());
        List<ScheduledStore.Registration> results;
        try {
            Set<String> users = new HashSet<>();
            for (Registering r : batch) {
                String to = r.draft().getRecipient();
                if (!ChatRules.EVERYONE.equals(to) && !ChatRules.isGroup(to) && !to.equals(r.session().user())) {
                    users.add(to);
                }
            }
            Set<String> unknown = users.isEmpty() ? Set.of() : recipients.withoutAccount(users);
            Map<String, String> zones = zones(batch);
            long now = clock.millis();
            for (Registering r : batch) {
                String to = r.draft().getRecipient();
                Timings.Resolved resolved = Timings.resolve(r.draft(), zones.get(r.session().user()), zones.get(to), now,
                        settings.maxDelay());
                if (unknown.contains(to)) {
                    replies.add(r.session(), Envelopes.error(r.requestId(), ErrorReply.Code.UNKNOWN_USER,
                            "not scheduled: no user named " + to, false));
                } else if (ChatRules.isGroup(to) && !recipients.inGroup(to.substring(1), r.session().user())) {
                    replies.add(r.session(), Envelopes.error(r.requestId(), ErrorReply.Code.BAD_REQUEST,
                            "not scheduled: you are not a member of " + to + " (or there is no such group)", false));
                } else if (resolved.problem() != null) {
                    replies.add(r.session(), Envelopes.error(r.requestId(), ErrorReply.Code.BAD_REQUEST,
                            "not scheduled: " + resolved.problem(), false));
                } else {
                    if (OnlineWaits.whenOnline(resolved.draft())) {
                        waits.note(r.session().user(), resolved.draft()); // before it is held: see OnlineWaits
                    }
                    registering.add(new Registering(r.session(), r.requestId(), resolved.draft()));
                    drafts.add(new ScheduledStore.Draft(r.session().user(), resolved.draft()));
                }
            }
            results = drafts.isEmpty() ? List.of() : store.registerAll(drafts, settings.maxPerUser());
        } catch (RuntimeException e) {
            batch.forEach(r -> Reply.failed(r.session(), r.requestId(), e));
            return;
        }
        for (int i = 0; i < registering.size(); i++) {
            registered(replies, registering.get(i).session(), registering.get(i).requestId(), results.get(i));
        }
        replies.send();
        for (int i = 0; i < registering.size(); i++) {
            Scheduled draft = registering.get(i).draft();
            if (OnlineWaits.whenOnline(draft)) {
                if (results.get(i) instanceof ScheduledStore.Registration.TooMany) {
                    waits.forget(registering.get(i).session().user(), draft);
                } else {
                    waits.registered(draft);
                }
            }
        }
    }

    /** The zones of the senders and recipients whose times need them, in one round trip; empty when none do. */
    private Map<String, String> zones(List<Registering> batch) {
        Set<String> users = new HashSet<>();
        for (Registering r : batch) {
            if (Timings.needsZones(r.draft())) {
                users.add(r.session().user());
                users.add(r.draft().getRecipient());
            }
        }
        return recipients.zones(users);
    }

    private void registered(Replies replies, Session session, long id, ScheduledStore.Registration registration) {
        if (registration instanceof ScheduledStore.Registration.Failed failure) {
            Reply.failed(session, id, failure.cause());
            return;
        }
        if (registration instanceof ScheduledStore.Registration.TooMany tooMany) {
            replies.add(session, Envelopes.error(id, ErrorReply.Code.TOO_MANY_SCHEDULED, "not scheduled: you have "
                    + tooMany.limit() + " scheduled messages, the most the server keeps for one user "
                    + "(cim.server.delays.max-per-user); cancel some first", false));
            return;
        }
        Scheduled message = registration instanceof ScheduledStore.Registration.Created created
                ? created.message() : ((ScheduledStore.Registration.Existing) registration).message();
        timers.hold(session.user(), message);
        if (registration instanceof ScheduledStore.Registration.Created) {
            news.changed(replies, session, id, ScheduledChange.Kind.SCHEDULED, message);
        } else {
            replies.add(session, Envelopes.scheduledChange(id, ScheduledChange.Kind.SCHEDULED, message));
        }
    }
}
