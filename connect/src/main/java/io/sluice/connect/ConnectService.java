package io.sluice.connect;

import static java.util.Objects.requireNonNull;

import io.grpc.stub.StreamObserver;
import io.sluice.api.DataFrame;
import io.sluice.common.SluiceException;
import io.sluice.connect.proto.AddArtifactsRequest;
import io.sluice.connect.proto.AddArtifactsResponse;
import io.sluice.connect.proto.AnalyzePlanRequest;
import io.sluice.connect.proto.AnalyzePlanResponse;
import io.sluice.connect.proto.ArtifactStatusesRequest;
import io.sluice.connect.proto.ArtifactStatusesResponse;
import io.sluice.connect.proto.ConfigRequest;
import io.sluice.connect.proto.ConfigResponse;
import io.sluice.connect.proto.ExecutePlanRequest;
import io.sluice.connect.proto.ExecutePlanResponse;
import io.sluice.connect.proto.FetchErrorDetailsRequest;
import io.sluice.connect.proto.FetchErrorDetailsResponse;
import io.sluice.connect.proto.InterruptRequest;
import io.sluice.connect.proto.InterruptResponse;
import io.sluice.connect.proto.KeyValue;
import io.sluice.connect.proto.Plan;
import io.sluice.connect.proto.ReattachExecuteRequest;
import io.sluice.connect.proto.ReleaseExecuteRequest;
import io.sluice.connect.proto.ReleaseExecuteResponse;
import io.sluice.connect.proto.ReleaseSessionRequest;
import io.sluice.connect.proto.ReleaseSessionResponse;
import io.sluice.connect.proto.SparkConnectServiceGrpc;
import io.sluice.logical.plan.LogicalPlan;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The Spark Connect service: each call finds (or starts) the client's session by its session id and
 * answers; {@code ExecutePlan} runs on a pool thread of its own while the call streams its responses
 * ({@link Operation}). Every failure reaches the client as a status naming what is at fault.
 */
final class ConnectService extends SparkConnectServiceGrpc.SparkConnectServiceImplBase {
    /** The Spark version Sluice answers {@code spark.version} with: the protocol it speaks. */
    static final String SPARK_VERSION = "4.2.0";

    private final ConnectSessions sessions;
    private final ExecutorService executions;
    private final BufferAllocator allocator;

    ConnectService(ConnectSessions sessions, ExecutorService executions, BufferAllocator allocator) {
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.executions = requireNonNull(executions, "executions is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    @Override
    public void executePlan(ExecutePlanRequest request, StreamObserver<ExecutePlanResponse> out) {
        try {
            ConnectSession session = sessions.session(request.getSessionId());
            String id = request.hasOperationId() ? request.getOperationId() : UUID.randomUUID().toString();
            if (session.operation(id) != null) {
                throw new SluiceException("INVALID_HANDLE.OPERATION_ALREADY_EXISTS: operation " + id + " exists");
            }
            Operation operation = new Operation(id, ConnectSession.tags(request.getTagsList()));
            session.register(operation);
            operation.attach(out, null);
            try {
                executions.execute(new PlanExecution(session, operation, request.getPlan(), allocator));
            } catch (RejectedExecutionException e) {
                session.release(id);
                throw new SluiceException("too many Spark Connect queries run at once (" + ConnectServer.MAX_EXECUTIONS
                        + "); retry when one ends", e);
            }
        } catch (RuntimeException e) {
            out.onError(ErrorStatus.of(e));
        }
    }

    @Override
    public void reattachExecute(ReattachExecuteRequest request, StreamObserver<ExecutePlanResponse> out) {
        try {
            ConnectSession session = sessions.session(request.getSessionId());
            Operation operation = session.operation(request.getOperationId());
            if (operation == null) {
                throw new SluiceException("INVALID_HANDLE.OPERATION_NOT_FOUND: operation " + request.getOperationId()
                        + " is not known (released or never started)");
            }
            operation.attach(out, request.hasLastResponseId() ? request.getLastResponseId() : null);
        } catch (RuntimeException e) {
            out.onError(ErrorStatus.of(e));
        }
    }

    @Override
    public void releaseExecute(ReleaseExecuteRequest request, StreamObserver<ReleaseExecuteResponse> out) {
        answer(out, () -> {
            ConnectSession session = sessions.session(request.getSessionId());
            if (request.hasReleaseUntil()) {
                Operation operation = session.operation(request.getOperationId());
                if (operation != null) {
                    operation.releaseUntil(request.getReleaseUntil().getResponseId());
                }
            } else {
                session.release(request.getOperationId());
            }
            return ReleaseExecuteResponse.newBuilder().setSessionId(session.id())
                    .setServerSideSessionId(session.serverSideId()).setOperationId(request.getOperationId()).build();
        });
    }

    @Override
    public void releaseSession(ReleaseSessionRequest request, StreamObserver<ReleaseSessionResponse> out) {
        answer(out, () -> {
            String serverSide = sessions.release(request.getSessionId());
            return ReleaseSessionResponse.newBuilder().setSessionId(request.getSessionId())
                    .setServerSideSessionId(serverSide == null ? "" : serverSide).build();
        });
    }

    @Override
    public void interrupt(InterruptRequest request, StreamObserver<InterruptResponse> out) {
        answer(out, () -> {
            ConnectSession session = sessions.session(request.getSessionId());
            List<String> ids = switch (request.getInterruptType()) {
                case INTERRUPT_TYPE_ALL -> session.interrupt(op -> true);
                case INTERRUPT_TYPE_TAG -> session.interrupt(op -> op.tags().contains(request.getOperationTag()));
                case INTERRUPT_TYPE_OPERATION_ID -> session.interrupt(op -> op.id().equals(request.getOperationId()));
                default -> throw new SluiceException("unknown interrupt type " + request.getInterruptType());
            };
            return InterruptResponse.newBuilder().setSessionId(session.id()).setServerSideSessionId(session.serverSideId())
                    .addAllInterruptedIds(ids).build();
        });
    }

    @Override
    public void config(ConfigRequest request, StreamObserver<ConfigResponse> out) {
        answer(out, () -> {
            ConnectSession session = sessions.session(request.getSessionId());
            ConfigResponse.Builder response = ConfigResponse.newBuilder().setSessionId(session.id())
                    .setServerSideSessionId(session.serverSideId());
            SparkConf conf = session.conf();
            ConfigRequest.Operation op = request.getOperation();
            switch (op.getOpTypeCase()) {
                case SET -> op.getSet().getPairsList().forEach(kv -> conf.set(kv.getKey(), kv.getValue()));
                case GET -> {
                    for (String key : op.getGet().getKeysList()) {
                        String value = conf.get(key);
                        if (value == null) {
                            throw new SluiceException("[SQL_CONF_NOT_FOUND] the SQL config '" + key + "' cannot be found");
                        }
                        response.addPairs(pair(key, value));
                    }
                }
                case GET_WITH_DEFAULT -> op.getGetWithDefault().getPairsList().forEach(kv -> {
                    String value = conf.get(kv.getKey());
                    response.addPairs(value != null ? pair(kv.getKey(), value) : kv);
                });
                case GET_OPTION -> op.getGetOption().getKeysList().forEach(key -> {
                    String value = conf.get(key);
                    response.addPairs(value != null ? pair(key, value) : KeyValue.newBuilder().setKey(key).build());
                });
                case GET_ALL -> {
                    String prefix = op.getGetAll().hasPrefix() ? op.getGetAll().getPrefix() : "";
                    for (Map.Entry<String, String> e : conf.all().entrySet()) {
                        if (e.getKey().startsWith(prefix)) {
                            response.addPairs(pair(e.getKey(), e.getValue()));
                        }
                    }
                }
                case UNSET -> op.getUnset().getKeysList().forEach(conf::unset);
                case IS_MODIFIABLE -> op.getIsModifiable().getKeysList()
                        .forEach(key -> response.addPairs(pair(key, String.valueOf(SparkConf.isModifiable(key)))));
                default -> throw new SluiceException("unknown config operation " + op.getOpTypeCase());
            }
            return response.build();
        });
    }

    private static KeyValue pair(String key, String value) {
        return KeyValue.newBuilder().setKey(key).setValue(value).build();
    }

    @Override
    public void analyzePlan(AnalyzePlanRequest request, StreamObserver<AnalyzePlanResponse> out) {
        answer(out, () -> {
            ConnectSession session = sessions.session(request.getSessionId());
            AnalyzePlanResponse.Builder response = AnalyzePlanResponse.newBuilder().setSessionId(session.id())
                    .setServerSideSessionId(session.serverSideId());
            switch (request.getAnalyzeCase()) {
                case SCHEMA -> response.setSchema(AnalyzePlanResponse.Schema.newBuilder()
                        .setSchema(SparkTypes.toProto(plan(session, request.getSchema().getPlan()).schema())));
                case EXPLAIN -> {
                    DataFrame df = dataFrame(session, request.getExplain().getPlan());
                    response.setExplain(AnalyzePlanResponse.Explain.newBuilder().setExplainString(SparkExplain.format(
                            df.explain(), request.getExplain().getExplainMode(), ConnectSession.output(df.logicalPlan()).schema())));
                }
                case TREE_STRING -> response.setTreeString(AnalyzePlanResponse.TreeString.newBuilder().setTreeString(
                        SparkTypes.treeString(plan(session, request.getTreeString().getPlan()).schema(),
                                request.getTreeString().hasLevel() ? request.getTreeString().getLevel() : 0)));
                case IS_LOCAL -> response.setIsLocal(AnalyzePlanResponse.IsLocal.newBuilder().setIsLocal(false));
                case IS_STREAMING -> response.setIsStreaming(AnalyzePlanResponse.IsStreaming.newBuilder().setIsStreaming(false));
                case INPUT_FILES -> response.setInputFiles(AnalyzePlanResponse.InputFiles.getDefaultInstance());
                case SPARK_VERSION -> response.setSparkVersion(AnalyzePlanResponse.SparkVersion.newBuilder()
                        .setVersion(SPARK_VERSION));
                case DDL_PARSE -> response.setDdlParse(AnalyzePlanResponse.DDLParse.newBuilder()
                        .setParsed(SparkTypes.toProto(SparkTypes.parseSchema(request.getDdlParse().getDdlString()))));
                case SAME_SEMANTICS -> response.setSameSemantics(AnalyzePlanResponse.SameSemantics.newBuilder().setResult(
                        plan(session, request.getSameSemantics().getTargetPlan())
                                .equals(plan(session, request.getSameSemantics().getOtherPlan()))));
                case SEMANTIC_HASH -> response.setSemanticHash(AnalyzePlanResponse.SemanticHash.newBuilder()
                        .setResult(plan(session, request.getSemanticHash().getPlan()).hashCode()));
                case PERSIST -> response.setPersist(AnalyzePlanResponse.Persist.getDefaultInstance());
                case UNPERSIST -> response.setUnpersist(AnalyzePlanResponse.Unpersist.getDefaultInstance());
                case JSON_TO_DDL -> response.setJsonToDdl(AnalyzePlanResponse.JsonToDDL.newBuilder().setDdlString(
                        SparkTypes.ddl(SparkTypes.parseSchema(request.getJsonToDdl().getJsonString()))));
                default -> throw new SluiceException("AnalyzePlan " + request.getAnalyzeCase() + " is not supported by Sluice");
            }
            return response.build();
        });
    }

    private static DataFrame dataFrame(ConnectSession session, Plan plan) {
        if (!plan.hasRoot()) {
            throw new SluiceException("only a relation can be analyzed, not a " + plan.getOpTypeCase());
        }
        return session.translator().translate(plan.getRoot());
    }

    private static LogicalPlan plan(ConnectSession session, Plan plan) {
        return ConnectSession.output(dataFrame(session, plan).logicalPlan());
    }

    @Override
    public StreamObserver<AddArtifactsRequest> addArtifacts(StreamObserver<AddArtifactsResponse> out) {
        return new ArtifactUpload(sessions, out);
    }

    @Override
    public void artifactStatus(ArtifactStatusesRequest request, StreamObserver<ArtifactStatusesResponse> out) {
        answer(out, () -> {
            ConnectSession session = sessions.session(request.getSessionId());
            ArtifactStatusesResponse.Builder response = ArtifactStatusesResponse.newBuilder().setSessionId(session.id())
                    .setServerSideSessionId(session.serverSideId());
            request.getNamesList().forEach(name -> response.putStatuses(name,
                    ArtifactStatusesResponse.ArtifactStatus.newBuilder().setExists(session.code().has(name)).build()));
            return response.build();
        });
    }

    @Override
    public void fetchErrorDetails(FetchErrorDetailsRequest request, StreamObserver<FetchErrorDetailsResponse> out) {
        answer(out, () -> FetchErrorDetailsResponse.newBuilder().setSessionId(request.getSessionId()).build());
    }

    private static <T> void answer(StreamObserver<T> out, Supplier<T> work) {
        T response;
        try {
            response = work.get();
        } catch (RuntimeException e) {
            out.onError(ErrorStatus.of(e));
            return;
        }
        out.onNext(response);
        out.onCompleted();
    }
}
