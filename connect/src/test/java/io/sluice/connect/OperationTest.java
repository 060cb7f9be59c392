package io.sluice.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.grpc.stub.ServerCallStreamObserver;
import io.sluice.connect.proto.ExecutePlanResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * An operation keeps its sent responses for a reattach within {@link Operation#MAX_RETAINED_BYTES},
 * still resumes after the last one it dropped, and keeps none once the client releases them.
 */
class OperationTest {
    private static final int MIB = 1 << 20;

    @Test
    void sentResponsesAreBoundedByBytesAndReleased() {
        Operation operation = new Operation("op", Set.of());
        Stream first = new Stream();
        operation.attach(first, null);
        for (int i = 0; i < 10; i++) {
            assertThat(operation.emit(response("r" + i, MIB))).isTrue();
        }
        assertThat(first.received).hasSize(10);
        assertThat(operation.retainedBytes()).isPositive().isLessThanOrEqualTo(Operation.MAX_RETAINED_BYTES);

        // three responses of just over 1 MiB fit in 4 MiB, so r6 is the last one dropped: a reattach after it resumes
        Stream second = new Stream();
        operation.attach(second, "r6");
        assertThat(second.received).containsExactly("r7", "r8", "r9");
        assertThatThrownBy(() -> operation.attach(new Stream(), "r1")).hasMessageContaining("INVALID_CURSOR")
                .hasMessageContaining("r1");

        operation.releaseUntil("r9");
        assertThat(operation.retainedBytes()).isZero();
        operation.finish(null);
        assertThat(operation.isDone()).isTrue();
    }

    private static ExecutePlanResponse response(String id, int bytes) {
        return ExecutePlanResponse.newBuilder().setResponseId(id).setArrowBatch(ExecutePlanResponse.ArrowBatch.newBuilder()
                .setRowCount(1).setData(ByteString.copyFrom(new byte[bytes]))).build();
    }

    /** A client stream that is always ready and records the ids it was sent. */
    private static final class Stream extends ServerCallStreamObserver<ExecutePlanResponse> {
        final List<String> received = new ArrayList<>();

        @Override
        public void onNext(ExecutePlanResponse value) {
            received.add(value.getResponseId());
        }

        @Override
        public void onError(Throwable t) {
        }

        @Override
        public void onCompleted() {
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public boolean isCancelled() {
            return false;
        }

        @Override
        public void setOnCancelHandler(Runnable onCancelHandler) {
        }

        @Override
        public void setOnReadyHandler(Runnable onReadyHandler) {
        }

        @Override
        public void setCompression(String compression) {
        }

        @Override
        public void disableAutoInboundFlowControl() {
        }

        @Override
        public void request(int count) {
        }

        @Override
        public void setMessageCompression(boolean enable) {
        }
    }
}
