package io.strata.rule.sharding;

/** One entry of {@code keyGenerators}. */
public sealed interface KeyGeneratorConfig {

    String name();

    /**
     * A generator with its own state: tables naming the same entry share one.
     *
     * @param workerIds where a SNOWFLAKE generator takes each key's worker id
     */
    KeyGenerator newGenerator(WorkerIds workerIds);

    /**
     * SNOWFLAKE, ShardingSphere's props and bit layout.
     *
     * @param workerId                  0..1023, distinct for each proxy writing the same tables
     * @param maxVibrationOffset        0..4095: the first sequence of each millisecond cycles 0..this, so that keys
     *                                  taken mod a small power of two spread over shards
     * @param maxTolerateTimeDifference milliseconds the clock may go back before generation fails
     */
    record Snowflake(String name, int workerId, int maxVibrationOffset, long maxTolerateTimeDifference)
            implements KeyGeneratorConfig {

        @Override
        public KeyGenerator newGenerator(WorkerIds workerIds) {
            return new SnowflakeKeyGenerator(workerIds, workerId, maxVibrationOffset, maxTolerateTimeDifference,
                    System::currentTimeMillis);
        }
    }

    /** UUID: 32 hexadecimal characters, a random UUID without its dashes, as ShardingSphere. */
    record Uuid(String name) implements KeyGeneratorConfig {

        @Override
        public KeyGenerator newGenerator(WorkerIds workerIds) {
            return new UuidKeyGenerator();
        }
    }
}
