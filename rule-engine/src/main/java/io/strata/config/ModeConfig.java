package io.strata.config;

import java.util.Objects;

/**
 * {@code mode} in server.yaml, with ShardingSphere's keys as written: Standalone (the default: this process's files
 * are the configuration) or Cluster (the members share their configuration through a registry).
 *
 * @param cluster                whether {@code type} is Cluster
 * @param repositoryType         ZooKeeper or etcd (null when standalone)
 * @param namespace              the registry's root under which the members' state lives
 * @param serverLists            the registry's servers, {@code host:port[,host:port...]}
 * @param retryIntervalMillis    the first wait before the registry client retries an operation (doubling after)
 * @param maxRetries             how often it retries
 * @param timeToLiveSeconds      how long a member that stopped answering keeps its place (the session timeout)
 * @param operationTimeoutMillis how long one registry operation may take
 * @param digest                 {@code user:password} of ZooKeeper's digest scheme, or null for none
 */
public record ModeConfig(boolean cluster, String repositoryType, String namespace, String serverLists,
                         long retryIntervalMillis, int maxRetries, int timeToLiveSeconds, long operationTimeoutMillis,
                         String digest) {

    public static final String ZOOKEEPER = "ZooKeeper";
    public static final String ETCD = "etcd";
    /** ShardingSphere's default namespace, so both can share a registry's layout conventions. */
    public static final String DEFAULT_NAMESPACE = "governance_ds";
    public static final ModeConfig STANDALONE = new ModeConfig(false, null, DEFAULT_NAMESPACE, null, 500, 3, 60, 500,
            null);

    public ModeConfig {
        Objects.requireNonNull(namespace, "namespace");
    }

    /** Where the registry is, for logs and messages: {@code ZooKeeper 127.0.0.1:2181/governance_ds}. */
    public String describe() {
        return cluster ? repositoryType + " " + serverLists + "/" + namespace : "standalone";
    }
}
