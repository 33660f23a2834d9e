package io.strata.rule.health;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class GtidPositionTest {

    @Test
    void aMariaDbReplicaHasAWriteWhenItsSequenceIsAtLeastThePrimarysInEveryDomain() {
        GtidPosition primary = GtidPosition.parse("0-1-100,1-1-7");

        assertTrue(GtidPosition.parse("0-1-100,1-1-7").contains(primary));
        assertTrue(GtidPosition.parse("1-1-9, 0-1-120").contains(primary));
        assertFalse(GtidPosition.parse("0-1-99,1-1-7").contains(primary));
        assertFalse(GtidPosition.parse("0-1-100").contains(primary), "domain 1 missing");
    }

    @Test
    void aMySqlGtidSetContainsAnotherWhenEveryIntervalIsCovered() {
        String uuid = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
        GtidPosition primary = GtidPosition.parse(uuid + ":1-100");

        assertTrue(GtidPosition.parse(uuid.toUpperCase() + ":1-150").contains(primary));
        assertFalse(GtidPosition.parse(uuid + ":1-50:52-150").contains(primary), "a hole at 51");
        assertTrue(GtidPosition.parse(uuid + ":1-5:7").contains(GtidPosition.parse(uuid + ":7")));
    }

    @Test
    void anEmptyPositionIsContainedEverywhereAndContainsNothing() {
        assertTrue(GtidPosition.parse("").isEmpty());
        assertTrue(GtidPosition.parse("0-1-5").contains(GtidPosition.EMPTY));
        assertFalse(GtidPosition.EMPTY.contains(GtidPosition.parse("0-1-5")));
    }

    @Test
    void garbageIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> GtidPosition.parse("0-1"));
        assertThrows(NumberFormatException.class, () -> GtidPosition.parse("a-b-c"));
    }

    @Test
    void thePositionAfterAWriteIsTheFirstCheckThatStartedLater() {
        DataSourceStatus primary = new DataSourceStatus("db", "primary");
        primary.recordPosition(100, GtidPosition.parse("0-1-1"));
        primary.recordPosition(200, GtidPosition.parse("0-1-2"));
        primary.recordPosition(300, GtidPosition.parse("0-1-3"));

        assertTrue(primary.positionAfter(150).toString().equals("0-1-2"));
        assertTrue(primary.positionAfter(50).toString().equals("0-1-1"));
        assertTrue(primary.positionAfter(300) == null, "no check started after the write yet");
    }
}
