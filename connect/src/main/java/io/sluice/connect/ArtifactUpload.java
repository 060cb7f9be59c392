package io.sluice.connect;

import static java.util.Objects.requireNonNull;

import io.grpc.stub.StreamObserver;
import io.sluice.common.SluiceException;
import io.sluice.connect.proto.AddArtifactsRequest;
import io.sluice.connect.proto.AddArtifactsResponse;
import io.sluice.logical.expr.UserJar;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

/**
 * One {@code AddArtifacts} stream: artifacts whole ({@code batch}) or in chunks ({@code begin_chunk},
 * then {@code chunk}s), each checked against its CRC and added to the session's {@link ClientCode};
 * answered with every artifact's CRC outcome when the client ends the stream. The first refusal
 * ends the call with an error naming the artifact; later messages of the stream are ignored.
 */
final class ArtifactUpload implements StreamObserver<AddArtifactsRequest> {
    private final ConnectSessions sessions;
    private final StreamObserver<AddArtifactsResponse> out;
    private final List<AddArtifactsResponse.ArtifactSummary> summaries = new ArrayList<>();
    private ConnectSession session;
    private boolean failed;
    private String chunked;
    private long chunksLeft;
    private boolean chunksIntact;
    private ByteArrayOutputStream chunks;

    ArtifactUpload(ConnectSessions sessions, StreamObserver<AddArtifactsResponse> out) {
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.out = requireNonNull(out, "out is null");
    }

    @Override
    public void onNext(AddArtifactsRequest request) {
        if (failed) {
            return;
        }
        try {
            if (session == null) {
                session = sessions.session(request.getSessionId());
            }
            switch (request.getPayloadCase()) {
                case BATCH -> request.getBatch().getArtifactsList().forEach(a -> {
                    expectNoChunks(a.getName());
                    add(a.getName(), a.getData().getData().toByteArray(), intact(a.getData()));
                });
                case BEGIN_CHUNK -> begin(request.getBeginChunk());
                case CHUNK -> chunk(request.getChunk());
                default -> throw new SluiceException("AddArtifacts request without artifacts");
            }
        } catch (RuntimeException e) {
            failed = true;
            out.onError(ErrorStatus.of(e));
        }
    }

    private void begin(AddArtifactsRequest.BeginChunkedArtifact begin) {
        expectNoChunks(begin.getName());
        session.code().checkAllowed("artifact " + begin.getName());
        if (begin.getTotalBytes() > UserJar.MAX_BYTES) {
            throw new SluiceException("artifact " + begin.getName() + " has " + begin.getTotalBytes()
                    + " bytes; a jar of user functions may have at most " + UserJar.MAX_BYTES);
        }
        chunked = begin.getName();
        chunksLeft = begin.getNumChunks();
        chunksIntact = true;
        chunks = new ByteArrayOutputStream((int) begin.getTotalBytes());
        chunk(begin.getInitialChunk());
    }

    private void chunk(AddArtifactsRequest.ArtifactChunk chunk) {
        if (chunked == null) {
            throw new SluiceException("AddArtifacts chunk without a begun artifact");
        }
        if (chunks.size() + chunk.getData().size() > UserJar.MAX_BYTES) {
            throw new SluiceException("artifact " + chunked + " is over " + UserJar.MAX_BYTES + " bytes");
        }
        chunks.writeBytes(chunk.getData().toByteArray());
        chunksIntact &= intact(chunk);
        if (--chunksLeft <= 0) {
            String name = chunked;
            chunked = null;
            add(name, chunks.toByteArray(), chunksIntact);
        }
    }

    private void expectNoChunks(String next) {
        if (chunked != null) {
            throw new SluiceException("artifact " + next + " began before the chunks of " + chunked + " ended");
        }
    }

    private void add(String name, byte[] bytes, boolean intact) {
        if (intact) {
            session.code().add(name, bytes);
        }
        summaries.add(AddArtifactsResponse.ArtifactSummary.newBuilder().setName(name).setIsCrcSuccessful(intact).build());
    }

    private static boolean intact(AddArtifactsRequest.ArtifactChunk chunk) {
        CRC32 crc = new CRC32();
        crc.update(chunk.getData().asReadOnlyByteBuffer());
        return crc.getValue() == chunk.getCrc();
    }

    @Override
    public void onError(Throwable t) {
        failed = true;
    }

    @Override
    public void onCompleted() {
        if (failed) {
            return;
        }
        if (chunked != null) {
            out.onError(ErrorStatus.of(new SluiceException("artifact " + chunked + " ended before its last chunk")));
            return;
        }
        AddArtifactsResponse.Builder response = AddArtifactsResponse.newBuilder().addAllArtifacts(summaries);
        if (session != null) {
            response.setSessionId(session.id()).setServerSideSessionId(session.serverSideId());
        }
        out.onNext(response.build());
        out.onCompleted();
    }
}
