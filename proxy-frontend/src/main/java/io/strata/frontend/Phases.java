package io.strata.frontend;

import io.netty.channel.ChannelHandler;
import io.strata.kernel.Session;
import io.strata.protocol.HandshakeResponse41;

/**
 * Hands a client connection from one phase to the next: from the connection phase to the command phase after
 * login, and back for COM_CHANGE_USER. The two phases know this, not each other.
 */
public interface Phases {

    /** The command phase of a session that has just logged in. */
    ChannelHandler commands(Session session);

    /**
     * The connection phase again, for COM_CHANGE_USER: it authenticates {@code response}'s user with an auth switch
     * whose first packet has {@code sequenceId}.
     */
    ChannelHandler changeUser(Session session, HandshakeResponse41 response, int sequenceId);
}
