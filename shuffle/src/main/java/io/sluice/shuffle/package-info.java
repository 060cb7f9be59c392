/** Sluice shuffle module. */
package io.sluice.shuffle;
