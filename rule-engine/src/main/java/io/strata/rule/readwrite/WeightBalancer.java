package io.strata.rule.readwrite;

import io.strata.rule.health.DataSourceStatus;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Smooth weighted round robin (as nginx balances upstreams): over any run of statements each candidate gets its
 * share of the weights in rotation exactly, interleaved rather than in bursts, and not merely on average as a weighted
 * random pick would.
 */
final class WeightBalancer implements LoadBalancer {

    private final Map<String, Integer> weights;
    private final Map<String, Long> current = new HashMap<>();

    WeightBalancer(Map<String, Integer> weights) {
        this.weights = Map.copyOf(weights);
    }

    @Override
    public synchronized DataSourceStatus choose(List<DataSourceStatus> candidates) {
        long total = 0;
        DataSourceStatus best = null;
        long bestScore = 0;
        for (DataSourceStatus candidate : candidates) {
            int weight = weights.getOrDefault(candidate.name(), 1);
            total += weight;
            long score = current.merge(candidate.name(), (long) weight, Long::sum);
            if (best == null || score > bestScore) {
                best = candidate;
                bestScore = score;
            }
        }
        current.put(best.name(), bestScore - total);
        return best;
    }
}
