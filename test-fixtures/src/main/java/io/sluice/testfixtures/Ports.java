package io.sluice.testfixtures;

import java.io.IOException;
import java.net.ServerSocket;

/** Ports for tests that must name a node's port before starting it. */
public final class Ports {
    private Ports() {
    }

    /**
     * A TCP port free on every address of this machine now (so also on the loopback address); another
     * process may take it before the test binds it, which tests accept as rare.
     */
    public static int free() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
