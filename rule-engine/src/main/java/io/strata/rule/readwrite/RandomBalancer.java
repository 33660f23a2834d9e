package io.strata.rule.readwrite;

import io.strata.rule.health.DataSourceStatus;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/** A candidate at random, each as likely. */
final class RandomBalancer implements LoadBalancer {

    @Override
    public DataSourceStatus choose(List<DataSourceStatus> candidates) {
        return candidates.get(ThreadLocalRandom.current().nextInt(candidates.size()));
    }
}
