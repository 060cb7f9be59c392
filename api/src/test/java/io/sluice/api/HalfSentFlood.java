package io.sluice.api;

import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Connections to an HTTP port on 127.0.0.1 that each sent the start of a request and nothing more,
 * as a client without the secret would hold them; closing closes them all.
 */
final class HalfSentFlood implements AutoCloseable {
    private final List<Socket> sockets = new ArrayList<>();

    private HalfSentFlood() {
    }

    /** Opens {@code count} connections to {@code port}, each sending {@code half}. */
    static HalfSentFlood open(int port, int count, String half) throws IOException {
        byte[] bytes = half.getBytes(StandardCharsets.US_ASCII);
        HalfSentFlood flood = new HalfSentFlood();
        try {
            for (int i = 0; i < count; i++) {
                Socket socket = new Socket("127.0.0.1", port);
                flood.sockets.add(socket);
                try {
                    socket.getOutputStream().write(bytes);
                } catch (IOException closedAlready) {
                    // evicted for a newer one before it wrote: it still took its turn at the server
                }
            }
        } catch (IOException | RuntimeException e) {
            flood.close();
            throw e;
        }
        return flood;
    }

    /** How many of the connections the server has not closed (end of stream or reset within 20 ms). */
    int stillOpen() throws IOException {
        int open = 0;
        for (Socket socket : sockets) {
            socket.setSoTimeout(20);
            try {
                socket.getInputStream().readNBytes(64 * 1024); // to the end of the stream: closed
            } catch (SocketTimeoutException e) {
                open++;
            } catch (IOException e) {
                // reset: closed by the server
            }
        }
        return open;
    }

    @Override
    public void close() throws IOException {
        for (Socket socket : sockets) {
            socket.close();
        }
    }
}
