/** Sluice cli module. */
package io.sluice.cli;
