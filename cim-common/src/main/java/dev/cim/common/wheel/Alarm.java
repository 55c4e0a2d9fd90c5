package dev.cim.common.wheel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * When the ticker is to look at the wheel next, in nanoseconds after the scheduler's origin
 * ({@link #NEVER} while nothing is pending), and how any thread moves that earlier.
 *
 * <h3>The hand-shake that lets the ticker sleep</h3>
 * New entries reach the wheel only when the ticker takes them from the inbox, so a ticker asleep
 * until {@code t} must be woken by any entry due before {@code t}. A scheduling thread therefore
 * pushes its entry first and reads the alarm after; only if its entry is due earlier does it lower
 * the alarm (a compare-and-set) and unpark the ticker. Later entries cost the read alone, and of
 * many entries due early only the ones that lower the alarm further wake anyone. (The first entry
 * into an empty inbox also asks for a pass within a tick, so that a burst is filed while it is
 * fresh rather than piling up until the next occupied slot; the first cancellation asks for one at
 * once, with {@code ringBy(0)}: the origin is always past.)
 *
 * <p>The ticker, at the end of a pass, {@linkplain #set sets} the alarm to the wheel's next event,
 * which can be later than the value it replaces; then it takes the inbox once more. A thread that
 * read the alarm before that write pushed its entry before it too, so that second look finds the
 * entry; a thread that reads it after the write sees the new value and wakes the ticker if it must.
 * Both steps are volatile accesses, so one of the two always sees the other (the same pairing as a
 * lock-free queue's "check again after publishing that you sleep").
 */
final class Alarm {

    /** The alarm of a ticker with nothing to do: it sleeps until woken. */
    static final long NEVER = Long.MAX_VALUE;

    private static final VarHandle AT;

    static {
        try {
            AT = MethodHandles.lookup().findVarHandle(Alarm.class, "at", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // through AT
    private volatile long at = NEVER;
    private final Runnable wakeTicker;

    /** @param wakeTicker unparks the ticker, starting it first if need be; any thread calls it */
    Alarm(Runnable wakeTicker) {
        this.wakeTicker = wakeTicker;
    }

    /** The time set, relative to the origin. */
    long at() {
        return at;
    }

    /**
     * Makes sure the ticker looks at the wheel no later than {@code when}: lowers the alarm and
     * wakes the ticker if it was set later. Any thread; costs one volatile read when it was not.
     *
     * @return whether this call moved the alarm (and woke the ticker)
     */
    boolean ringBy(long when) {
        long current;
        while (when < (current = at)) {
            if (AT.compareAndSet(this, current, when)) {
                wakeTicker.run();
                return true;
            }
        }
        return false;
    }

    /** Sets the alarm, earlier or later. Only the ticker's pass, followed by a second look at the inbox. */
    void set(long when) {
        at = when;
    }

    /** Lowers the alarm without waking anyone: the owner of the wheel, which reads it before it sleeps. */
    void lower(long when) {
        long current;
        while (when < (current = at)) {
            if (AT.compareAndSet(this, current, when)) {
                return;
            }
        }
    }
}
