package io.strata.rule.readwrite;

import io.strata.rule.health.DataSourceStatus;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** The candidate running the fewest statements now; ties go round robin, so idle replicas share the load. */
final class LeastActiveBalancer implements LoadBalancer {

    private final AtomicInteger start = new AtomicInteger();

    @Override
    public DataSourceStatus choose(List<DataSourceStatus> candidates) {
        int size = candidates.size();
        int offset = Math.floorMod(start.getAndIncrement(), size);
        DataSourceStatus best = null;
        for (int i = 0; i < size; i++) {
            DataSourceStatus candidate = candidates.get((offset + i) % size);
            if (best == null || candidate.active() < best.active()) {
                best = candidate;
            }
        }
        return best;
    }
}
