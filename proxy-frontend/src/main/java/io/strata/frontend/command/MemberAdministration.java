package io.strata.frontend.command;

import io.strata.frontend.FrontendContext;
import io.strata.kernel.Cluster;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * This host's sessions as other members of its cluster see them: the rows of their SHOW PROCESSLIST, and their KILL
 * of a session held here, with the same rules as a local client's (an administrator any, another user only the
 * user's own).
 */
public final class MemberAdministration implements Cluster.Administration {

    private final FrontendContext context;

    public MemberAdministration(FrontendContext context) {
        this.context = context;
    }

    @Override
    public List<List<Object>> processes(String user, boolean admin) {
        return ProcessList.rows(context, user, admin);
    }

    @Override
    public CompletableFuture<?> kill(long id, boolean queryOnly, String user, boolean admin) {
        try {
            return KillCommand.kill(context, null, id, queryOnly, user, admin);
        } catch (RuntimeException refused) {
            return CompletableFuture.failedFuture(refused);
        }
    }
}
