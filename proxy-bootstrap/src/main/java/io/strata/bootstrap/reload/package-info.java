/**
 * Live reconfiguration: RELOAD STRATA CONFIG, SIGHUP and server.watchConfig read the conf folder again, validate it
 * whole and swap the kernel's runtime between statements; pools of unchanged data sources stay, others drain.
 */
package io.strata.bootstrap.reload;
