package io.strata.backend.result;

import io.netty.buffer.ByteBuf;

/** One row of a {@link QueryResult}: its values, or its packet as a native backend sent it. */
public sealed interface Row permits Row.Cells, Row.Packet {

    /**
     * Values a driver decoded: raw bytes or Strings for text, Numbers, the text of dates and times; null is NULL.
     * The frontend encodes them in the client's protocol and character set.
     */
    record Cells(Object[] values) implements Row {
    }

    /**
     * A row's payload (no packet header) as a native backend sent it, in the text or the binary protocol: the one
     * the client asked for, since the unit ran the client's own command, so the frontend writes it as it is.
     * Reference counted: whoever takes it from a {@link QueryResult} releases it.
     */
    record Packet(ByteBuf payload, boolean binary) implements Row {
    }
}
