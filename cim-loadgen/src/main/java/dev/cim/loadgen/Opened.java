package dev.cim.loadgen;

import java.time.Duration;
import java.util.List;

/**
 * The users a pool connected and logged in, how many did not and the first reason why, and how long
 * it took: what opening a pool of cim clients ({@code ClientPool}) or of a peer's
 * ({@code peer.PeerPool}) gives.
 *
 * @param <T> the kind of user
 */
public record Opened<T extends ChatUser>(List<T> clients, int failed, String firstFailure, Duration elapsed) {
}
