package io.strata.backend.merge;

import java.util.List;

/**
 * The units' rows in one order, each unit's rows already in it: a k-way merge that holds one row per unit, the
 * next row always the least of those (a tie goes to the earlier unit). A unit is read only when its last row was
 * taken, so a LIMIT stops the reading early.
 */
final class SortedMerge implements RowStream {

    private final UnitRows[] units;
    private final RowOrder order;
    /** Each unit's row in hand, or null. */
    private final MergeRow[] heads;
    /** Units with a row in hand, as a binary heap by their rows. */
    private final int[] heap;
    private int size;
    /** The unit whose row was taken last, read again at the next call; -1 before the first. */
    private int taken = -1;
    private boolean started;

    SortedMerge(List<UnitRows> units, RowOrder order) {
        this.units = units.toArray(UnitRows[]::new);
        this.order = order;
        this.heads = new MergeRow[units.size()];
        this.heap = new int[units.size()];
    }

    @Override
    public MergeRow next() throws InterruptedException {
        if (!started) {
            started = true;
            for (int unit = 0; unit < units.length; unit++) {
                heads[unit] = units[unit].next();
                if (heads[unit] != null) {
                    heap[size++] = unit;
                }
            }
            for (int i = size / 2 - 1; i >= 0; i--) {
                siftDown(i);
            }
        } else if (taken >= 0) {
            heads[taken] = units[taken].next();
            if (heads[taken] == null) {
                heap[0] = heap[--size];
            }
            siftDown(0);
        }
        if (size == 0) {
            taken = -1;
            return null;
        }
        taken = heap[0];
        MergeRow row = heads[taken];
        heads[taken] = null;
        return row;
    }

    private void siftDown(int i) {
        while (true) {
            int least = i;
            int left = 2 * i + 1;
            int right = left + 1;
            if (left < size && less(heap[left], heap[least])) {
                least = left;
            }
            if (right < size && less(heap[right], heap[least])) {
                least = right;
            }
            if (least == i) {
                return;
            }
            int swap = heap[i];
            heap[i] = heap[least];
            heap[least] = swap;
            i = least;
        }
    }

    private boolean less(int unit, int other) {
        int c = order.compare(heads[unit], heads[other]);
        return c < 0 || c == 0 && unit < other;
    }

    @Override
    public void close() {
        for (int unit = 0; unit < heads.length; unit++) {
            if (heads[unit] != null) {
                heads[unit].release();
                heads[unit] = null;
            }
        }
        size = 0;
    }
}
