/** MySQL's compressed protocol between Strata and a client that asks for it (CLIENT_COMPRESS, zlib). */
package io.strata.frontend.compress;
