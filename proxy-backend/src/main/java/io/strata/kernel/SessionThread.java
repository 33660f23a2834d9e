package io.strata.kernel;

import io.netty.channel.EventLoop;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Where a session's stages run, one at a time: the proxy's client event loop, or, for an embedded session, whichever
 * application thread calls it, one at a time under the session's lock. Timers (a query rule's time limit) run their
 * step the same way.
 */
public interface SessionThread {

    /** Whether the calling thread may run a stage of the session now. */
    boolean inThread();

    /** Runs {@code step} as a stage of the session: now when {@link #inThread()}, else as soon as it may. */
    void execute(Runnable step);

    /** Runs {@code step} as a stage of the session and returns once it ran. */
    void executeAndWait(Runnable step);

    /** Runs {@code step} as a stage of the session after {@code delay}. */
    ScheduledFuture<?> schedule(Runnable step, long delay, TimeUnit unit);

    /** The event loop whose native connections the session's mirrored statements take first, or null. */
    EventLoop eventLoop();

    /** A proxy session's: its client channel's event loop. */
    static SessionThread of(EventLoop loop) {
        return new SessionThread() {
            @Override
            public boolean inThread() {
                return loop.inEventLoop();
            }

            @Override
            public void execute(Runnable step) {
                if (loop.inEventLoop()) {
                    step.run();
                } else {
                    loop.execute(step);
                }
            }

            @Override
            public void executeAndWait(Runnable step) {
                if (loop.inEventLoop()) {
                    step.run();
                } else {
                    loop.submit(step).syncUninterruptibly();
                }
            }

            @Override
            public ScheduledFuture<?> schedule(Runnable step, long delay, TimeUnit unit) {
                return loop.schedule(step, delay, unit);
            }

            @Override
            public EventLoop eventLoop() {
                return loop;
            }
        };
    }

    /**
     * An embedded session's: the calling thread runs each stage, holding the session's lock for the stage only (not
     * while its statement runs on a backend), so that a timer's stage on {@code timers} waits for a stage in progress
     * rather than racing it.
     */
    static SessionThread callers(ScheduledExecutorService timers) {
        ReentrantLock lock = new ReentrantLock();
        return new SessionThread() {
            @Override
            public boolean inThread() {
                return lock.isHeldByCurrentThread();
            }

            @Override
            public void execute(Runnable step) {
                lock.lock();
                try {
                    step.run();
                } finally {
                    lock.unlock();
                }
            }

            @Override
            public void executeAndWait(Runnable step) {
                execute(step);
            }

            @Override
            public ScheduledFuture<?> schedule(Runnable step, long delay, TimeUnit unit) {
                return timers.schedule(() -> execute(step), delay, unit);
            }

            @Override
            public EventLoop eventLoop() {
                return null;
            }
        };
    }
}
