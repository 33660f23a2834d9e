package io.strata.backend.merge;

import io.strata.backend.result.Result;

/** What one route unit answered, and where it ran. */
public record UnitAnswer(String dataSource, Result result) {
}
