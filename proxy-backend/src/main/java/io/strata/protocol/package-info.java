/**
 * The MySQL client/server protocol as both sides of the proxy speak it: framing (3-byte length, sequence id,
 * 0xFFFFFF continuations), the basic data types, OK/ERR/EOF, the handshake packets and the password scrambles.
 */
package io.strata.protocol;
