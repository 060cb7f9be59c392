/** Sluice examples module. */
package io.sluice.examples;
