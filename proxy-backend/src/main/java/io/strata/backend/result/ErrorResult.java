package io.strata.backend.result;

import io.strata.protocol.ErrPacket;

/** A statement's answer that is an error: the server's own (code, SQLSTATE, message), or Strata's. */
public record ErrorResult(ErrPacket error) implements Result {
}
