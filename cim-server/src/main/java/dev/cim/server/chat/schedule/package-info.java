/**
 * Scheduled messages, held by the server and sent once at their time by the sender's client or by
 * the server. {@link dev.cim.server.chat.schedule.Scheduling} assembles the parts and explains the
 * design (two timers, one claim); the rest is hidden here.
 */
package dev.cim.server.chat.schedule;
