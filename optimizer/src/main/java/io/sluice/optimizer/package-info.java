/** Sluice optimizer module. */
package io.sluice.optimizer;
