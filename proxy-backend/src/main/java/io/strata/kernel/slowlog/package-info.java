/**
 * The slow query log: statements that ran longer than a threshold, written to a file in MySQL 8's own slow log
 * format so that the tools operators already use on mysqld's log ({@code pt-query-digest}, {@code mysqldumpslow})
 * read Strata's unchanged. The command handler hands each slow statement to {@link
 * io.strata.kernel.slowlog.SlowLog#log} on its event loop; a bounded queue and one background thread keep the
 * disk, and anything slower than a queue insert, off that loop, at the price of dropping (and counting) entries
 * when the disk cannot keep up. Passwords in account statements are masked before anything reaches the file.
 */
package io.strata.kernel.slowlog;
