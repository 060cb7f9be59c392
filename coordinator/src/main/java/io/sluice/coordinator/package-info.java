/** Sluice coordinator module. */
package io.sluice.coordinator;
