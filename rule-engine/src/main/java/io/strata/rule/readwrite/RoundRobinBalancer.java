package io.strata.rule.readwrite;

import io.strata.rule.health.DataSourceStatus;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** Each candidate in turn. */
final class RoundRobinBalancer implements LoadBalancer {

    private final AtomicInteger next = new AtomicInteger();

    @Override
    public DataSourceStatus choose(List<DataSourceStatus> candidates) {
        return candidates.get(Math.floorMod(next.getAndIncrement(), candidates.size()));
    }
}
