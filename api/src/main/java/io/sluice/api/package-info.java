/** Sluice api module. */
package io.sluice.api;
