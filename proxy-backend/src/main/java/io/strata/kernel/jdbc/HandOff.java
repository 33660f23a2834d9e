package io.strata.kernel.jdbc;

import java.util.concurrent.Executor;

/**
 * Runs work on the thread that asks for it: {@link #execute} keeps the task, {@link #runPending} runs it. An embedded
 * session's executor hands its backend work here, so that it runs on the application's own thread after the kernel's
 * stage that started it has returned, with no thread switch and no lock held.
 */
public final class HandOff implements Executor {

    private Runnable pending;

    @Override
    public void execute(Runnable task) {
        if (pending != null) {
            throw new IllegalStateException("a statement's work is already waiting to run");
        }
        pending = task;
    }

    /** Runs the work handed off since the last call, if any. */
    public void runPending() {
        Runnable task = pending;
        pending = null;
        if (task != null) {
            task.run();
        }
    }
}
