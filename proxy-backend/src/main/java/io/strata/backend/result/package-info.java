/**
 * Protocol-neutral results: a result set as its columns and a pull cursor of rows, a count of changed rows, an
 * error. Executors produce them, the merge combines them, the frontend writes them as packets.
 */
package io.strata.backend.result;
