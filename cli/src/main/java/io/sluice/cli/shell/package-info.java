/**
 * {@code sluice sql}'s statements: the interactive shell (a JLine line editor with history,
 * completion and Ctrl-C cancelling the running query), scripts run statement by statement, and
 * their results printed as tables, CSV, TSV or JSON lines, or written as an Arrow or Parquet file.
 */
package io.sluice.cli.shell;
