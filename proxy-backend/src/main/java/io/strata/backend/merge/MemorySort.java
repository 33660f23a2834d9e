package io.strata.backend.merge;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The rows sorted in memory by an order the units could not be asked for (an ORDER BY of an aggregate): every row
 * is read first, then given in order, rows equal in it in the order they came. With a LIMIT only the first offset +
 * limit rows in the order are kept while reading. Rows held count against the merge's bound.
 */
final class MemorySort implements RowStream {

    /** A row and when it came, so that equal rows keep their order. */
    private record Held(MergeRow row, long arrival) {
    }

    private final RowStream source;
    private final Comparator<Held> order;
    private final HeldRows held;
    /** The most rows worth keeping (offset + limit), or -1 for all. */
    private final long keep;
    private List<Held> sorted;
    private int position;

    MemorySort(RowStream source, RowOrder order, HeldRows held, long keep) {
        this.source = source;
        this.order = Comparator.<Held, MergeRow>comparing(Held::row, order).thenComparingLong(Held::arrival);
        this.held = held;
        this.keep = keep;
    }

    @Override
    public MergeRow next() throws InterruptedException {
        if (sorted == null) {
            sorted = keep >= 0 && keep <= held.bound() ? firstRows() : allRows();
        }
        if (position == sorted.size()) {
            return null;
        }
        held.remove(1);
        Held next = sorted.set(position++, null);
        return next.row();
    }

    private List<Held> allRows() throws InterruptedException {
        List<Held> rows = new ArrayList<>();
        sorted = rows;
        long arrival = 0;
        for (MergeRow row = source.next(); row != null; row = source.next()) {
            rows.add(new Held(row, arrival++));
            held.add(1);
        }
        rows.sort(order);
        return rows;
    }

    /** The first {@link #keep} rows, in a heap whose top is the last of them, so a row before it replaces it. */
    private List<Held> firstRows() throws InterruptedException {
        PriorityQueue<Held> heap = new PriorityQueue<>(order.reversed());
        sorted = new ArrayList<>();
        long arrival = 0;
        try {
            for (MergeRow row = source.next(); row != null; row = source.next()) {
                Held candidate = new Held(row, arrival++);
                if (heap.size() < keep) {
                    heap.add(candidate);
                    held.add(1);
                } else if (keep > 0 && order.compare(candidate, heap.peek()) < 0) {
                    heap.poll().row().release();
                    heap.add(candidate);
                } else {
                    row.release();
                }
            }
        } catch (RuntimeException | InterruptedException e) {
            sorted.addAll(heap); // for close()
            throw e;
        }
        List<Held> rows = new ArrayList<>(heap);
        rows.sort(order);
        return rows;
    }

    @Override
    public void close() {
        if (sorted != null) {
            for (int i = position; i < sorted.size(); i++) {
                Held row = sorted.get(i);
                if (row != null) {
                    row.row().release();
                    held.remove(1);
                }
            }
            sorted.clear();
            position = 0;
        }
        source.close();
    }
}
