/** Sluice bench module. */
package io.sluice.bench;
