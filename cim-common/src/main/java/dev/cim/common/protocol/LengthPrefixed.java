package dev.cim.common.protocol;

import dev.cim.common.protocol.proto.Envelope;
import io.netty.buffer.ByteBuf;
import java.io.IOException;

/** {@link EnvelopeFraming#lengthPrefixed()}: the 4-byte length, then the payload. */
final class LengthPrefixed implements EnvelopeFraming {

    static final LengthPrefixed INSTANCE = new LengthPrefixed();

    private LengthPrefixed() {
    }

    @Override
    public void append(Envelope envelope, ByteBuf out, int maxPayloadLength) throws IOException {
        int size = Payloads.checkedSize(envelope, maxPayloadLength);
        out.ensureWritable(CimProtocolCodec.LENGTH_FIELD_LENGTH + size);
        out.writeInt(size);
        Payloads.write(envelope, size, out);
    }
}
