/** The health monitor: checks primaries and replicas of read/write groups and keeps their status current. */
package io.strata.backend.health;
