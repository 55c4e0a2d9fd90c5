package dev.cim.server.redis;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnknownFieldSet;
import dev.cim.common.protocol.MessageIds;
import dev.cim.common.protocol.proto.Scheduled;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * How one scheduled message is laid out in its bucket ({@link RedisScheduledStore}), kept small
 * because a million of them may wait for a year.
 *
 * <ul>
 *   <li>Its <em>name</em>, the sorted-set member and the hash field (stored twice): the user, a
 *       newline, then the id. An id of the usual form ({@code <16 hex digits>-<sequence>}, see
 *       {@link MessageIds}) is packed as the byte 1, the origin's 8 bytes and the sequence's
 *       digits: 12 bytes instead of 20. Any other id is the byte 2 and its text. User names have
 *       no newline, so the first newline ends the user.</li>
 *   <li>Its <em>body</em>, the hash value: the serialized {@link Scheduled} without the id (the
 *       name has it) and the due time (the score in the due set has it). The user's number for it
 *       is its first field, put there by the register script in front of the rest (a protobuf
 *       message is the concatenation of its fields, in any order).</li>
 * </ul>
 *
 * Without the due time (and the creation time, which was the due time less the delay asked for)
 * the body of a 50-character message is some 70 bytes and lands in Redis' 80-byte allocation class
 * instead of the 96-byte one: 300 bytes a message in all became about 285.
 */
final class ScheduledLayout {

    private static final byte PACKED = 1;
    private static final byte TEXT = 2;
    /** Origin digits in an id, then the dash. */
    private static final int ORIGIN_DIGITS = 16;

    private ScheduledLayout() {
    }

    /** The name of message {@code id} of {@code user}. */
    static byte[] name(String user, String id) {
        byte[] userBytes = RedisBytes.of(user);
        if (MessageIds.isValid(id)) {
            long origin = Long.parseUnsignedLong(id, 0, ORIGIN_DIGITS, 16);
            byte[] sequence = id.substring(ORIGIN_DIGITS + 1).getBytes(StandardCharsets.US_ASCII);
            return ByteBuffer.allocate(userBytes.length + 2 + Long.BYTES + sequence.length)
                    .put(userBytes).put((byte) '\n').put(PACKED).putLong(origin).put(sequence).array();
        }
        byte[] text = RedisBytes.of(id);
        return ByteBuffer.allocate(userBytes.length + 2 + text.length)
                .put(userBytes).put((byte) '\n').put(TEXT).put(text).array();
    }

    /** The user of a name. */
    static String user(byte[] name) {
        return new String(name, 0, newline(name), StandardCharsets.UTF_8);
    }

    /** The message id of a name. */
    static String id(byte[] name) {
        int start = newline(name) + 1;
        if (start >= name.length) {
            throw new IllegalStateException("unreadable scheduled message name: no id after the user");
        }
        if (name[start] == PACKED && name.length > start + 1 + Long.BYTES) {
            long origin = ByteBuffer.wrap(name, start + 1, Long.BYTES).getLong();
            int digits = start + 1 + Long.BYTES;
            return MessageIds.origin(origin) + '-'
                    + new String(name, digits, name.length - digits, StandardCharsets.US_ASCII);
        }
        if (name[start] == TEXT) {
            return new String(name, start + 1, name.length - start - 1, StandardCharsets.UTF_8);
        }
        throw new IllegalStateException("unreadable scheduled message name: unknown id form " + name[start]);
    }

    /**
     * What {@code RedisScheduledStore}'s register script is given: the body without the number.
     * Built field by field rather than by clearing a copy ({@code toBuilder()}, whose merge of every
     * field took some 3 % of the server's CPU when registering, as much again for {@link #numbered}):
     * a field added to {@link Scheduled} must be added here (ScheduledLayoutTest fails until it is).
     */
    static byte[] draft(Scheduled draft) {
        Scheduled.Builder body = Scheduled.newBuilder()
                .setRecipient(draft.getRecipient())
                .setText(draft.getText())
                .setRequestedMillis(draft.getRequestedMillis())
                .setOccurrence(draft.getOccurrence())
                .setSeriesStartMillis(draft.getSeriesStartMillis());
        if (draft.hasTiming()) {
            body.setTiming(draft.getTiming());
        }
        return body.build().toByteArray();
    }

    /** {@code draft} with {@code number}, as registered. */
    static Scheduled numbered(Scheduled draft, long number) {
        Scheduled.Builder numbered = Scheduled.newBuilder()
                .setId(draft.getId())
                .setNumber(number)
                .setRecipient(draft.getRecipient())
                .setText(draft.getText())
                .setDueAtMillis(draft.getDueAtMillis())
                .setRequestedMillis(draft.getRequestedMillis())
                .setOccurrence(draft.getOccurrence())
                .setSeriesStartMillis(draft.getSeriesStartMillis());
        if (draft.hasTiming()) {
            numbered.setTiming(draft.getTiming());
        }
        return numbered.build();
    }

    /** The body of {@code message}. */
    static byte[] body(Scheduled message) {
        return message.toBuilder().clearId().clearDueAtMillis().clearRecipientZone().build().toByteArray();
    }

    /** Message {@code id}, due at {@code dueAtMillis}, from its body. */
    static Scheduled parse(byte[] body, String id, long dueAtMillis) {
        try {
            if (body.length > 0 && body[0] >= '0' && body[0] <= '9') {
                Scheduled.Builder earlier = parseEarlier(body).setId(id);
                // Its own due time is the one it was given (the score of one freed from a claim is not).
                return (earlier.getDueAtMillis() == 0 ? earlier.setDueAtMillis(dueAtMillis) : earlier).build();
            }
            return Scheduled.parseFrom(body).toBuilder().setId(id).setDueAtMillis(dueAtMillis).build();
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("unreadable scheduled message " + id + ": " + e.getMessage(), e);
        }
    }

    /**
     * A body as servers before commit 410fd22 (2026-11-23) wrote it, still read so that their data
     * directories keep working: the number in digits, a newline, then the message with its due and
     * creation times (the creation time is dropped; it was field 7, now reserved).
     */
    private static Scheduled.Builder parseEarlier(byte[] body) throws InvalidProtocolBufferException {
        int newline = newline(body);
        long number = Long.parseLong(new String(body, 0, newline, StandardCharsets.US_ASCII));
        return Scheduled.parseFrom(ByteBuffer.wrap(body, newline + 1, body.length - newline - 1)).toBuilder()
                .setNumber(number).setUnknownFields(UnknownFieldSet.getDefaultInstance());
    }

    /** A due time as Redis gives a score back: digits, or a double's text. */
    static long dueAt(Object score) {
        String text = score instanceof byte[] bytes ? new String(bytes, StandardCharsets.US_ASCII) : String.valueOf(score);
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return (long) Double.parseDouble(text);
        }
    }

    private static int newline(byte[] bytes) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        throw new IllegalStateException("unreadable scheduled message: no newline");
    }
}
