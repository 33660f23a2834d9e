package io.strata.backend.merge;

import io.netty.buffer.ByteBuf;

import java.math.BigDecimal;

/**
 * A sum of exact numbers (integers and DECIMALs): in a long at the values' scale while it fits, which is nearly
 * always, in a BigDecimal after. Empty until a value is added.
 */
final class ExactSum {

    /** Digits of a DECIMAL text that always fit a long. */
    private static final int LONG_DIGITS = 18;

    private long unscaled;
    private int scale;
    private BigDecimal big;
    private boolean empty = true;

    /** Adds a non-NULL exact value of the row. */
    void add(MergeRow row, int column) {
        switch (row.layout().kind(column)) {
            case SIGNED -> add(row.longValue(column), 0);
            case DECIMAL -> addText(row.bytes(column), row.start(column), row.length(column));
            default -> add(Values.decimal(row, column));
        }
    }

    void add(BigDecimal value) {
        big = empty ? value : value().add(value);
        empty = false;
    }

    BigDecimal value() {
        return empty ? null : big != null ? big : BigDecimal.valueOf(unscaled, scale);
    }

    boolean isEmpty() {
        return empty;
    }

    private void add(long value, int valueScale) {
        if (empty) {
            unscaled = value;
            scale = valueScale;
            empty = false;
        } else if (big == null && scale == valueScale) {
            long sum = unscaled + value;
            if (((unscaled ^ sum) & (value ^ sum)) < 0) { // overflow
                big = BigDecimal.valueOf(unscaled, scale).add(BigDecimal.valueOf(value, valueScale));
            } else {
                unscaled = sum;
            }
        } else {
            add(BigDecimal.valueOf(value, valueScale));
        }
    }

    /** "-12.50" as -1250 at scale 2 while its digits fit a long. */
    private void addText(ByteBuf text, int start, int length) {
        int end = start + length;
        int i = start;
        boolean negative = i < end && text.getByte(i) == '-';
        if (negative) {
            i++;
        }
        long value = 0;
        int digits = 0;
        int valueScale = 0;
        boolean fraction = false;
        for (; i < end; i++) {
            byte c = text.getByte(i);
            if (c == '.') {
                fraction = true;
                continue;
            }
            if (++digits > LONG_DIGITS) {
                add(TextValues.decimal(text, start, length));
                return;
            }
            value = value * 10 + (c - '0');
            if (fraction) {
                valueScale++;
            }
        }
        add(negative ? -value : value, valueScale);
    }
}
