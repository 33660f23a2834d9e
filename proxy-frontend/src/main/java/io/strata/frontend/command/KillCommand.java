package io.strata.frontend.command;


import io.strata.frontend.FrontendContext;
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
        Session target = context.sessions().get(id);
        if (target == null) {
            throw ErrorCode.NO_SUCH_THREAD.exception(id);
        }
        if (!AdminStatements.isAdministrator(context, session) && !target.user().equals(session.user())) {
            throw ErrorCode.KILL_DENIED.exception(id);
        }
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
