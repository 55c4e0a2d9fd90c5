/**
 * What the chat core runs on, shared by all its parts ({@link dev.cim.server.chat.platform.Platform}):
 * each user's lane, where their store work runs in order ({@link dev.cim.server.chat.platform.UserLanes}),
 * store work batched per lane ({@link dev.cim.server.chat.platform.LaneBatches}), the node's delay
 * wheel, the clocks, and the one driver of background threads ({@link dev.cim.server.chat.platform.Periodic}).
 * Knows nothing of chat.
 */
package dev.cim.server.chat.platform;
