/** Sluice cluster module. */
package io.sluice.cluster;
