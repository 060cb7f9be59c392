package io.sluice.connect;

import static java.util.Objects.requireNonNull;

import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.sluice.common.SluiceException;
import io.sluice.connect.proto.ExecutePlanResponse;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * One {@code ExecutePlan} operation's responses between the thread producing them and the client
 * stream sending them, so that a client that lost its stream can {@code ReattachExecute} and go on
 * after the last response it saw. Bounded: the producer waits while {@link #MAX_AHEAD} responses are
 * unsent (back-pressure from a slow or absent client), and of the sent ones at most
 * {@link #MAX_RETAINED} and {@link #MAX_RETAINED_BYTES} are kept for a reattach (none once the client
 * releases them); a reattach after the last response dropped still resumes. A client that stays away
 * longer than {@link #ABANDON_AFTER_NANOS} has its operation failed, which cancels its query.
 */
final class Operation {
    static final int MAX_AHEAD = 8;
    static final int MAX_RETAINED = 32;
    static final long MAX_RETAINED_BYTES = 4L << 20;
    static final long ABANDON_AFTER_NANOS = TimeUnit.MINUTES.toNanos(5);

    private final String id;
    private final Set<String> tags;
    private final ArrayDeque<ExecutePlanResponse> buffer = new ArrayDeque<>();
    /** Index (in the operation's response sequence) of the buffer's first response. */
    private long first;
    /** Index of the next response to produce. */
    private long produced;
    /** Index of the next response to send. */
    private long cursor;
    /** Index past the last response ever sent (a reattach sends some again). */
    private long everSent;
    /** Serialized bytes of the sent responses still kept. */
    private long retainedBytes;
    /** Id of the last response dropped (the one before {@link #first}), or null. */
    private String lastDropped;
    private long finishedAtNanos;
    private ServerCallStreamObserver<ExecutePlanResponse> observer;
    private boolean done;
    private StatusRuntimeException failure;
    private boolean interrupted;
    private Runnable cancel = () -> { };

    Operation(String id, Set<String> tags) {
        this.id = requireNonNull(id, "id is null");
        this.tags = Set.copyOf(tags);
    }

    String id() {
        return id;
    }

    Set<String> tags() {
        return tags;
    }

    /** What interrupting the operation does to its running query; set by the producer. */
    synchronized void onCancel(Runnable action) {
        this.cancel = requireNonNull(action, "action is null");
        if (interrupted) {
            action.run();
        }
    }

    /** Sends the responses to {@code stream}, from after {@code lastResponseId} (null: from the start). */
    synchronized void attach(StreamObserver<ExecutePlanResponse> stream, String lastResponseId) {
        ServerCallStreamObserver<ExecutePlanResponse> call = (ServerCallStreamObserver<ExecutePlanResponse>) stream;
        if (lastResponseId != null && lastResponseId.equals(lastDropped)) {
            cursor = first;
        } else if (lastResponseId != null) {
            long index = first;
            boolean found = false;
            for (ExecutePlanResponse r : buffer) {
                index++;
                if (r.getResponseId().equals(lastResponseId)) {
                    found = true;
                    break;
                }
            }
            if (!found) {
                throw new SluiceException("INVALID_CURSOR.POSITION_NOT_AVAILABLE: response " + lastResponseId
                        + " of operation " + id + " is no longer kept");
            }
            cursor = index;
        } else {
            cursor = first;
        }
        if (observer != null) {
            observer.onError(io.grpc.Status.CANCELLED.withDescription("another stream reattached to operation " + id)
                    .asRuntimeException());
        }
        observer = call;
        call.setOnReadyHandler(this::drain);
        call.setOnCancelHandler(() -> detach(call));
        drain();
    }

    private synchronized void detach(ServerCallStreamObserver<ExecutePlanResponse> call) {
        if (observer == call) {
            observer = null;
            notifyAll();
        }
    }

    /** Adds a response, waiting while too many are unsent; false when the operation was interrupted. */
    synchronized boolean emit(ExecutePlanResponse response) {
        long detachedSince = observer == null ? System.nanoTime() : 0;
        while (produced - cursor >= MAX_AHEAD && !interrupted) {
            if (observer == null) {
                long now = System.nanoTime();
                detachedSince = detachedSince == 0 ? now : detachedSince;
                if (now - detachedSince > ABANDON_AFTER_NANOS) {
                    interrupted = true;
                    break;
                }
            } else {
                detachedSince = 0;
            }
            try {
                wait(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                interrupted = true;
            }
        }
        if (interrupted) {
            return false;
        }
        buffer.add(response);
        produced++;
        drain();
        return true;
    }

    /** The producer's end: everything was emitted ({@code failure} null) or it failed. */
    synchronized void finish(StatusRuntimeException failure) {
        this.done = true;
        this.finishedAtNanos = System.nanoTime();
        this.failure = failure;
        drain();
    }

    /** Interrupts the operation: its producer stops and its query is cancelled. True if it was still running. */
    boolean interrupt() {
        Runnable action;
        synchronized (this) {
            if (done) {
                return false;
            }
            interrupted = true;
            action = cancel;
            notifyAll();
        }
        action.run();
        return true;
    }

    synchronized boolean interrupted() {
        return interrupted;
    }

    synchronized boolean isDone() {
        return done && cursor == produced;
    }

    /** Whether the operation ended and sent everything longer than {@code nanos} ago. */
    synchronized boolean doneFor(long nanos, long nowNanos) {
        return isDone() && nowNanos - finishedAtNanos > nanos;
    }

    /** Serialized bytes of the sent responses kept for a reattach. */
    synchronized long retainedBytes() {
        return retainedBytes;
    }

    /** Forgets the sent responses up to and including {@code responseId}. */
    synchronized void releaseUntil(String responseId) {
        long index = first;
        int count = 0;
        for (ExecutePlanResponse r : buffer) {
            index++;
            count++;
            if (r.getResponseId().equals(responseId)) {
                if (index <= cursor) {
                    for (int i = 0; i < count; i++) {
                        dropFirst();
                    }
                }
                return;
            }
        }
    }

    private synchronized void drain() {
        ServerCallStreamObserver<ExecutePlanResponse> call = observer;
        if (call == null) {
            return;
        }
        while (cursor < produced && call.isReady()) {
            ExecutePlanResponse next = get(cursor);
            call.onNext(next);
            cursor++;
            if (cursor > everSent) {
                everSent = cursor;
                retainedBytes += next.getSerializedSize();
            }
            notifyAll();
        }
        while (cursor > first && (cursor - first > MAX_RETAINED || retainedBytes > MAX_RETAINED_BYTES)) {
            dropFirst();
        }
        if (done && cursor == produced) {
            observer = null;
            if (failure != null) {
                call.onError(failure);
            } else {
                call.onCompleted();
            }
        }
    }

    /** Drops the first kept response, which was sent. */
    private void dropFirst() {
        ExecutePlanResponse dropped = buffer.poll();
        retainedBytes -= dropped.getSerializedSize();
        lastDropped = dropped.getResponseId();
        first++;
    }

    private ExecutePlanResponse get(long index) {
        Iterator<ExecutePlanResponse> it = buffer.iterator();
        for (long i = first; i < index; i++) {
            it.next();
        }
        return it.next();
    }
}
