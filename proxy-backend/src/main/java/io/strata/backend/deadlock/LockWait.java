package io.strata.backend.deadlock;

/**
 * One InnoDB lock wait a server reports: the connection (server thread id) waiting, in which transaction and since
 * when each transaction began, and the connection holding the lock it waits for.
 *
 * @param server        the server, as host:port
 * @param waitingThread the waiting connection's thread id (what KILL QUERY takes)
 * @param waitingTrx    the waiting transaction's id
 * @param waitingSince  when the waiting transaction began (the server's epoch seconds)
 * @param blockingThread the lock holder's thread id
 * @param blockingTrx   the lock holder's transaction id
 * @param blockingSince when the lock holder's transaction began
 */
public record LockWait(String server, long waitingThread, String waitingTrx, long waitingSince, long blockingThread,
                       String blockingTrx, long blockingSince) {
}
