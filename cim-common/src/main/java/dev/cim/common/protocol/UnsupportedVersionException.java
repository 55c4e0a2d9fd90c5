package dev.cim.common.protocol;

import io.netty.handler.codec.CorruptedFrameException;

/** A frame arrived whose Envelope speaks a protocol version this peer does not. */
public final class UnsupportedVersionException extends CorruptedFrameException {

    private static final long serialVersionUID = 1L;

    private final int version;

    public UnsupportedVersionException(int version) {
        super("unsupported protocol version " + Integer.toUnsignedString(version) + " (expected: "
                + Envelopes.PROTOCOL_VERSION + ")");
        this.version = version;
    }

    /** The version the frame carried; 0 when it carried none. */
    public int version() {
        return version;
    }
}
