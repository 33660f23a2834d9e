package io.strata.rule.sharding;

import java.util.UUID;

/** UUID keys: {@code 0f8fad5bd9cb469fa16570867728950e}, as ShardingSphere's (a random UUID, dashes removed). */
final class UuidKeyGenerator implements KeyGenerator {

    @Override
    public String next() {
        return UUID.randomUUID().toString().replace("-", "");
    }
}
