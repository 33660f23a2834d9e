package io.strata.backend.deadlock;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class WaitGraphTest {

    /** Session {@code waiter} (transaction begun at {@code since}) waits on {@code server} for {@code holder}. */
    private static WaitGraph.Edge wait(long waiter, long since, String server, long holder, long holderSince) {
        return new WaitGraph.Edge(waiter, holder, new LockWait(server, waiter * 10, "t" + waiter + server, since,
                holder * 10, "t" + holder + server, holderSince));
    }

    @Test
    void twoSessionsWaitingForEachOtherOnTwoServersLoseTheYounger() {
        List<List<WaitGraph.Edge>> victims = new WaitGraph(List.of(
                wait(1, 100, "a:1", 2, 105),
                wait(2, 107, "b:1", 1, 100))).victims();

        assertEquals(1, victims.size());
        assertEquals(2, victims.get(0).get(0).waiter(), "session 2 began at 105, after session 1");
        assertEquals("b:1", victims.get(0).get(0).lockWait().server());
    }

    @Test
    void aCycleOnOneServerIsThatServersToBreak() {
        assertEquals(List.of(), new WaitGraph(List.of(
                wait(1, 100, "a:1", 2, 101),
                wait(2, 101, "a:1", 1, 100))).victims());
    }

    @Test
    void aCycleThroughTwoConnectionsOfASessionOnOneServerIsStratas() {
        // two data sources that are schemas of one server: each session has a connection (thread) on each
        List<List<WaitGraph.Edge>> victims = new WaitGraph(List.of(
                new WaitGraph.Edge(1, 2, new LockWait("a:1", 11, "x1", 100, 21, "x2", 101)),
                new WaitGraph.Edge(2, 1, new LockWait("a:1", 22, "y2", 101, 12, "y1", 100)))).victims();

        assertEquals(1, victims.size());
        assertEquals(22, victims.get(0).get(0).lockWait().waitingThread());
    }

    @Test
    void waitsWithoutACycleBreakNothing() {
        assertEquals(List.of(), new WaitGraph(List.of(
                wait(1, 100, "a:1", 2, 101),
                wait(2, 101, "b:1", 3, 102))).victims());
    }

    @Test
    void aCycleOfThreeSessionsOverTwoServersLosesOne() {
        List<List<WaitGraph.Edge>> victims = new WaitGraph(List.of(
                wait(1, 100, "a:1", 2, 102),
                wait(2, 102, "a:1", 3, 101),
                wait(3, 101, "b:1", 1, 100),
                wait(4, 90, "b:1", 1, 100))).victims(); // 4 waits too, but is in no cycle

        assertEquals(1, victims.size());
        assertEquals(2, victims.get(0).get(0).waiter());
    }

    @Test
    void equalStartsGoToTheLaterSession() {
        List<List<WaitGraph.Edge>> victims = new WaitGraph(List.of(
                wait(7, 100, "a:1", 9, 100),
                wait(9, 100, "b:1", 7, 100))).victims();

        assertEquals(9, victims.get(0).get(0).waiter());
    }
}
