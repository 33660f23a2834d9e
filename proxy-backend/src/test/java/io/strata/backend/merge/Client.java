package io.strata.backend.merge;

import io.netty.buffer.ByteBufUtil;
import io.strata.backend.result.QueryResult;
import io.strata.backend.result.Row;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** What the frontend does with a merged result: takes every row, writes it, lets its packet go. */
final class Client {

    private Client() {
    }

    /** Each row's payload in hex, with its protocol when binary ("binary:..."). */
    static List<String> packets(QueryResult result) throws InterruptedException {
        List<String> rows = new ArrayList<>();
        try (result) {
            for (Row row = result.next(); row != null; row = result.next()) {
                Row.Packet packet = (Row.Packet) row;
                rows.add((packet.binary() ? "binary:" : "") + ByteBufUtil.hexDump(packet.payload()));
                packet.payload().release();
            }
        }
        return rows;
    }

    /** Each row's cells, as a list. */
    static List<List<Object>> cells(QueryResult result) throws InterruptedException {
        List<List<Object>> rows = new ArrayList<>();
        try (result) {
            for (Row row = result.next(); row != null; row = result.next()) {
                rows.add(Arrays.asList(((Row.Cells) row).values()));
            }
        }
        return rows;
    }
}
