package io.strata.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.netty.channel.DefaultEventLoop;
import io.netty.channel.EventLoop;
import io.strata.protocol.CommandType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

/** Commands counted per event loop, read as totals. */
class FrontendStatsTest {

    private final EventLoop first = new DefaultEventLoop();
    private final EventLoop second = new DefaultEventLoop();

    @AfterEach
    void stopLoops() {
        first.shutdownGracefully(0, 0, TimeUnit.SECONDS);
        second.shutdownGracefully(0, 0, TimeUnit.SECONDS);
    }

    @Test
    void commandsOfEveryLoopAddUpByType() {
        FrontendStats stats = new FrontendStats();
        FrontendStats.CommandCounter onFirst = stats.commandsOn(first);
        FrontendStats.CommandCounter onSecond = stats.commandsOn(second);

        onFirst.count(CommandType.COM_QUERY);
        onFirst.count(CommandType.COM_QUERY);
        onSecond.count(CommandType.COM_QUERY);
        onSecond.count(CommandType.COM_STMT_EXECUTE);

        assertEquals(3, stats.commands(CommandType.COM_QUERY));
        assertEquals(1, stats.commands(CommandType.COM_STMT_EXECUTE));
        assertEquals(0, stats.commands(CommandType.COM_PING));
    }

    @Test
    void connectionsOfOneLoopShareItsCounters() {
        FrontendStats stats = new FrontendStats();

        assertSame(stats.commandsOn(first), stats.commandsOn(first));
    }
}
