package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.kernels.ArrowIpc;
import io.sluice.kernels.Batch;
import java.io.InputStream;
import org.apache.arrow.memory.BufferAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A result stream as the body of an HTTP response: an Arrow IPC stream encoded one batch at a time,
 * only as the response is read. Pekko HTTP reads it as the client takes bytes (a chunked response),
 * so a slow client holds back the reads, which hold back the {@link ResultStream}'s producer. A
 * query failing after the first bytes ends the body with an error trailer ({@link
 * ArrowIpc#errorTrailer}). Closing it (the response sent, or the client gone) closes the stream,
 * which cancels an unfinished query, and then runs {@code onClose}.
 */
final class ResultBody extends InputStream {
    private static final Logger LOG = LoggerFactory.getLogger(ResultBody.class);

    private final ResultStream stream;
    private final BufferAllocator allocator;
    private final Runnable onClose;
    private ArrowIpc.Encoder encoder;
    private byte[] current = new byte[0];
    private int position;
    private boolean ended;
    private boolean closed;

    ResultBody(ResultStream stream, BufferAllocator allocator, Runnable onClose) {
        this.stream = requireNonNull(stream, "stream is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.onClose = requireNonNull(onClose, "onClose is null");
    }

    @Override
    public synchronized int read() {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public synchronized int read(byte[] buffer, int offset, int length) {
        if (length == 0) {
            return 0;
        }
        while (position == current.length) {
            if (ended || closed) {
                return -1;
            }
            refill();
        }
        int n = Math.min(length, current.length - position);
        System.arraycopy(current, position, buffer, offset, n);
        position += n;
        return n;
    }

    /** Encodes the next piece: the schema first, then one batch, then the end (or the error trailer). */
    private void refill() {
        position = 0;
        try {
            if (encoder == null) {
                encoder = new ArrowIpc.Encoder(stream.schema(), allocator);
                current = encoder.start();
                return;
            }
            Batch next = stream.next();
            if (next == null) {
                current = encoder.end();
                ended = true;
                return;
            }
            try (Batch batch = next) {
                current = encoder.write(batch);
            }
        } catch (SluiceException e) {
            current = ArrowIpc.errorTrailer(HttpEndpoint.oneLine(e.getMessage()));
            ended = true;
        } catch (RuntimeException e) {
            LOG.error("query failed while its result was sent", e);
            current = ArrowIpc.errorTrailer(HttpEndpoint.oneLine("internal error: " + e));
            ended = true;
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        try {
            stream.close();
        } finally {
            synchronized (this) {
                if (encoder != null) {
                    encoder.close();
                }
            }
            onClose.run();
        }
    }
}
