/**
 * Packets Strata writes itself: column definitions, local result sets, generic responses.
 */
package io.strata.frontend.packet;
