package io.strata.kernel.slowlog;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Appends slow statements to a file in MySQL 8's slow log format ({@link SlowLogFormat}), with passwords masked
 * ({@link #masked}). {@link #log} is called on a Netty event loop, so it never waits: not for the disk, and not
 * for a lock either (a lock's holder can be descheduled, and every loop logging then waits for it). It is a
 * lock-free queue insert bounded by a counter; one daemon platform thread formats, masks and appends, and flushes
 * whenever the queue is empty, so a burst costs few writes and an entry reaches the file as soon as the writer has
 * caught up. When the writer falls {@value #CAPACITY} entries behind (a stalled disk), new entries are dropped and
 * counted rather than queued without bound: {@link #written()} + {@link #dropped()} is every call to {@link #log}
 * once {@link #close()} has returned.
 */
public final class SlowLog implements AutoCloseable {

    /** Entries that may wait for the writer; about 3 MB of statements of a few hundred bytes. */
    static final int CAPACITY = 10_000;
    private static final Logger LOG = LoggerFactory.getLogger(SlowLog.class);

    private final Path file;
    private final long thresholdNanos;
    private final Queue<SlowQuery> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final LongAdder dropped = new LongAdder();
    private final AtomicLong written = new AtomicLong();
    private final SlowLogFormat format = new SlowLogFormat();
    private final StringBuilder entry = new StringBuilder(512);
    private final Writer out;
    private final Thread writer;
    /** Set by the writer before it parks, so that {@link #log} wakes it only then (an unpark takes a mutex). */
    private volatile boolean parked;
    private volatile boolean closed;
    private boolean failing;

    /**
     * Opens {@code file} for appending (creating it and its folders), writing mysqld's banner first when it is new
     * or empty, and starts the writer thread. A statement is slow when it ran longer than {@code thresholdMillis}
     * (0: every statement); the caller compares, with {@link #thresholdNanos()}, before it builds an entry.
     *
     * @throws UncheckedIOException when the file cannot be opened or written
     */
    public SlowLog(Path file, long thresholdMillis) {
        if (thresholdMillis < 0) {
            throw new IllegalArgumentException("slow log threshold must be 0 or more milliseconds, not "
                    + thresholdMillis);
        }
        this.file = file;
        this.thresholdNanos = Math.multiplyExact(thresholdMillis, 1_000_000L);
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            this.out = new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(file,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE),
                    StandardCharsets.UTF_8), 1 << 16);
            if (Files.size(file) == 0) {
                out.write(SlowLogFormat.HEADER);
                out.flush();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the slow query log " + file, e);
        }
        this.writer = Thread.ofPlatform().daemon().name("strata-slow-log").start(this::writeLoop);
    }

    /**
     * The threshold in nanoseconds: a statement whose elapsed {@link System#nanoTime()} is greater is slow (greater,
     * not equal, as mysqld compares with long_query_time).
     */
    public long thresholdNanos() {
        return thresholdNanos;
    }

    /**
     * Hands a slow statement to the writer thread, or drops and counts it when the writer is {@value #CAPACITY}
     * entries behind or the log is closed. Never blocks; whether the statement was slow enough is the caller's test.
     */
    public void log(SlowQuery q) {
        Objects.requireNonNull(q, "q");
        if (closed) {
            dropped.increment();
            return;
        }
        if (queued.incrementAndGet() > CAPACITY) {
            queued.decrementAndGet();
            dropped.increment();
            return;
        }
        queue.offer(q);
        if (parked) {
            LockSupport.unpark(writer);
        }
    }

    /** Entries appended to the file's buffered writer (one whose append failed counts as dropped instead). */
    public long written() {
        return written.get();
    }

    /** Entries dropped: the queue was full, the log was closed, or their write failed. */
    public long dropped() {
        return dropped.sum();
    }

    /** The statement with the secrets of account statements replaced by {@code '<secret>'}; itself if none. */
    public static String masked(String sql) {
        return PasswordMask.masked(sql);
    }

    /**
     * Writes what is queued, flushes and closes the file. Entries logged after it returns are dropped; one logged
     * while it runs may be neither written nor counted.
     */
    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(writer);
        boolean interrupted = false;
        while (writer.isAlive()) {
            try {
                writer.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void writeLoop() {
        try {
            while (true) {
                SlowQuery q = queue.poll();
                if (q != null) {
                    queued.decrementAndGet();
                    write(q);
                    continue;
                }
                flush();
                if (closed) {
                    if (queue.isEmpty()) {
                        return;
                    }
                    continue;
                }
                // Says it parks, then looks again: log() offers, then reads the flag, so one of the two sees
                // the other (volatile accesses are totally ordered) and no entry waits for a later one.
                parked = true;
                if (queue.isEmpty() && !closed) {
                    LockSupport.park(this);
                }
                parked = false;
            }
        } finally {
            try {
                out.close();
            } catch (IOException e) {
                LOG.warn("closing the slow query log {}: {}", file, e.toString());
            }
        }
    }

    private void write(SlowQuery q) {
        entry.setLength(0);
        try {
            format.append(entry, q);
            out.append(entry);
            written.incrementAndGet();
            failing = false;
        } catch (IOException | RuntimeException e) {
            dropped.increment();
            failed("writing to", e);
        }
    }

    /** A failed flush is reported; the entries it lost stay counted as written (which ones is not known). */
    private void flush() {
        try {
            out.flush();
        } catch (IOException e) {
            failed("flushing", e);
        }
    }

    /** Says so once per run of failures (a full disk would otherwise say it for every statement). */
    private void failed(String what, Exception e) {
        if (!failing) {
            LOG.warn("{} the slow query log {} failed, entries are dropped until a write succeeds: {}", what, file,
                    e.toString());
            failing = true;
        }
    }
}
