package dev.cim.server.chat.platform;

import dev.cim.common.wheel.DelayScheduler;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.function.LongSupplier;

/**
 * What the chat core's parts run on, the same for all of them: the users' lanes, the node's delay
 * wheel, the wall clock (due times, sent times), a monotonic clock (durations), and the registry
 * meters go to. Tests pass fake clocks here; nothing in the chat core reads the system's clocks
 * itself.
 *
 * @param lanes    where each user's store work runs, in order
 * @param wheel    the node's timers (relay deadlines, scheduled messages due within the window)
 * @param clock    wall-clock time, comparable across nodes
 * @param nanoTime a monotonic reading in nanoseconds ({@code System::nanoTime})
 * @param meters   where the parts register their metrics
 */
public record Platform(UserLanes lanes, DelayScheduler wheel, Clock clock, LongSupplier nanoTime,
        MeterRegistry meters) {
}
