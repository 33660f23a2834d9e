package io.strata.kernel;

import io.strata.backend.result.ErrorResult;
import io.strata.backend.result.QueryResult;
import io.strata.backend.result.Result;
import io.strata.backend.result.UpdateResult;
import io.strata.protocol.ErrPacket;

/**
 * What the kernel answers a statement with: rows as a stream of values, an update count with its generated key, an
 * error, or, for a host with a client channel, word that the backend's own packets went to the client untouched.
 */
public sealed interface Outcome {

    /** A result set to pull; the statement ends when the host closes it. */
    record Rows(QueryResult rows) implements Outcome {
    }

    /** Rows changed, the last generated key, the server status and warnings. */
    record Update(UpdateResult update) implements Outcome {
    }

    /** The backend's error, or Strata's (a rule's refusal, an unreachable data source). */
    record Failure(ErrPacket error) implements Outcome {
    }

    /** The relay wrote the backend's answer to the client as it came: nothing is left to answer. */
    record Relayed() implements Outcome {
    }

    /** The outcome of an executor's protocol-neutral answer. */
    static Outcome of(Result result) {
        return switch (result) {
            case QueryResult rows -> new Rows(rows);
            case UpdateResult update -> new Update(update);
            case ErrorResult error -> new Failure(error.error());
        };
    }
}
