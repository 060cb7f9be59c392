/** Sluice worker module. */
package io.sluice.worker;
