package io.strata.rule.readwrite;

import io.strata.rule.health.DataSourceStatus;

import java.util.List;
import java.util.Map;

/** Picks the data source of one read among the candidates in rotation. Called from every event loop at once. */
public interface LoadBalancer {

    /** @param candidates not empty, in configuration order */
    DataSourceStatus choose(List<DataSourceStatus> candidates);

    /** The balancer of a {@code loadBalancer} value; {@code weights} by data source name, 1 when absent. */
    static LoadBalancer of(String type, Map<String, Integer> weights) {
        return switch (type) {
            case "ROUND_ROBIN" -> new RoundRobinBalancer();
            case "RANDOM" -> new RandomBalancer();
            case "WEIGHT" -> new WeightBalancer(weights);
            case "LEAST_ACTIVE" -> new LeastActiveBalancer();
            default -> throw new IllegalArgumentException("unknown load balancer " + type);
        };
    }
}
