package io.strata.config;

/**
 * Query digests: every statement counted under its normalised text, user, logical database and data source.
 *
 * @param maxDigests how many digests the table holds; the least used beyond are folded into one "others" row
 */
public record DigestsConfig(boolean enabled, int maxDigests) {

    public static final int DEFAULT_MAX_DIGESTS = 10_000;
    /**
     * Off unless asked for: bench/run.sh measured them costing 3-14% of Strata's queries per CPU-second on text
     * statements (the digest text made for each), more than the 3% a default may cost (README: Benchmarks).
     */
    public static final DigestsConfig DEFAULT = new DigestsConfig(false, DEFAULT_MAX_DIGESTS);

    public DigestsConfig {
        if (maxDigests < 1) {
            throw new IllegalArgumentException("maxDigests must be >= 1, got " + maxDigests);
        }
    }
}
