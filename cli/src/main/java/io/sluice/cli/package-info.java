/**
 * The {@code sluice} command: run a coordinator, a worker or an embedded cluster, and run SQL
 * scripts against a cluster. Only results go to stdout; logs and errors go to stderr.
 */
package io.sluice.cli;
