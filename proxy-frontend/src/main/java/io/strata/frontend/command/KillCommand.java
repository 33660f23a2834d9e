package io.strata.frontend.command;


import io.strata.frontend.FrontendContext;
import io.strata.kernel.Cluster;
import io.strata.backend.execute.SessionState;
import io.strata.kernel.Session;
import io.strata.protocol.ErrorCode;
import io.strata.rule.sql.SqlStatementInfo;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * KILL [QUERY|CONNECTION] n and COM_PROCESS_KILL, by the connection ids Strata gives out (those SHOW PROCESSLIST
 * shows), for the sessions of the same user, or any session for an administrator: KILL QUERY stops the statement the session runs (on its backend), KILL CONNECTION closes the session.
 */
final class KillCommand {

    enum Outcome { DONE, KILLED_SELF }

    record Kill(long id, boolean queryOnly) {
    }

    private KillCommand() {
    }

    /** The KILL statement's target, or empty when the statement is not a plain KILL of a number. */
    static Optional<Kill> parse(SqlStatementInfo info) {
        int index = 1;
        boolean queryOnly = false;
        if (info.tokenIs(1, "QUERY") || info.tokenIs(1, "CONNECTION")) {
            queryOnly = info.tokenIs(1, "QUERY");
            index = 2;
        }
        if (info.tokens().size() != index + 1) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Kill(Long.parseLong(info.token(index)), queryOnly));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** @throws io.strata.protocol.MySQLException at once for an unknown id (1094) or another user's session (1095) */
    static CompletableFuture<Outcome> run(FrontendContext context, Session session, long id, boolean queryOnly) {
        boolean admin = AdminStatements.isAdministrator(context, session);
        Cluster cluster = context.kernel().cluster();
        if (context.sessions().get(id) == null && cluster != null) {
            // another member's session (its worker id is in the id's high bits)
            return cluster.killElsewhere(id, queryOnly, session.user(), admin).thenApply(done -> {
                if (!done) {
                    throw ErrorCode.NO_SUCH_THREAD.exception(id);
                }
                return Outcome.DONE;
            });
        }
        return kill(context, session, id, queryOnly, session.user(), admin);
    }

    /**
     * Kills a session of this host for a user.
     *
     * @param asking the session that asked here, or null when another cluster member asked
     */
    static CompletableFuture<Outcome> kill(FrontendContext context, Session asking, long id, boolean queryOnly,
                                           String user, boolean admin) {
        Session target = context.sessions().get(id);
        if (target == null) {
            throw ErrorCode.NO_SUCH_THREAD.exception(id);
        }
        if (!admin && !target.user().equals(user)) {
            throw ErrorCode.KILL_DENIED.exception(id);
        }
        Session session = asking;
        SessionState.Cancel running = target.state().running();
        if (!queryOnly) {
            // the session's statement stops on its backend now, as KILL QUERY stops it, not when it would end
            if (running != null) {
                running.cancel();
            }
            target.client().close();
            return CompletableFuture.completedFuture(target == session ? Outcome.KILLED_SELF : Outcome.DONE);
        }
        return running == null ? CompletableFuture.completedFuture(Outcome.DONE)
                : running.cancel().thenApply(ignored -> Outcome.DONE);
    }
}
