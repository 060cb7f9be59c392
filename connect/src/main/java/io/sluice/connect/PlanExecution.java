package io.sluice.connect;

import static java.util.Objects.requireNonNull;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import io.sluice.api.DataFrame;
import io.sluice.common.SluiceException;
import io.sluice.common.types.Schema;
import io.sluice.connect.proto.CreateDataFrameViewCommand;
import io.sluice.connect.proto.ExecutePlanResponse;
import io.sluice.connect.proto.LocalRelation;
import io.sluice.connect.proto.Plan;
import io.sluice.connect.proto.Relation;
import io.sluice.connect.proto.SQL;
import io.sluice.connect.proto.SqlCommand;
import io.sluice.coordinator.PreparedSql;
import io.sluice.coordinator.QueryScope;
import io.sluice.coordinator.ResultStream;
import io.sluice.kernels.ArrowIpc;
import io.sluice.kernels.Batch;
import java.io.ByteArrayOutputStream;
import java.util.Locale;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Runs one {@code ExecutePlan}: a relation's schema first, then its rows as Arrow IPC batches while
 * the query produces them (each response one IPC stream of the schema and one batch, as Spark's
 * client reads them), then {@code ResultComplete}; a command runs and answers what Spark answers.
 */
final class PlanExecution implements Runnable {
    /** Arrow's end-of-stream marker: continuation token, zero length. */
    private static final byte[] END_OF_STREAM = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0, 0, 0, 0};

    private final ConnectSession session;
    private final Operation operation;
    private final Plan plan;
    private final BufferAllocator allocator;

    PlanExecution(ConnectSession session, Operation operation, Plan plan, BufferAllocator allocator) {
        this.session = requireNonNull(session, "session is null");
        this.operation = requireNonNull(operation, "operation is null");
        this.plan = requireNonNull(plan, "plan is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    @Override
    public void run() {
        try {
            switch (plan.getOpTypeCase()) {
                case ROOT -> relation(plan.getRoot());
                case COMMAND -> command(plan.getCommand());
                default -> throw new SluiceException("Spark Connect plan of kind " + plan.getOpTypeCase() + " is not supported");
            }
            if (operation.interrupted()) {
                throw new SluiceException("operation " + operation.id() + " was interrupted");
            }
            operation.emit(response().setResultComplete(ExecutePlanResponse.ResultComplete.getDefaultInstance()).build());
            operation.finish(null);
        } catch (Throwable t) {
            operation.finish(ErrorStatus.of(operation.interrupted()
                    ? new SluiceException("OPERATION_CANCELED: operation " + operation.id() + " was interrupted") : t));
        }
    }

    private ExecutePlanResponse.Builder response() {
        return ExecutePlanResponse.newBuilder()
                .setSessionId(session.id())
                .setServerSideSessionId(session.serverSideId())
                .setOperationId(operation.id())
                .setResponseId(UUID.randomUUID().toString());
    }

    private void relation(Relation root) {
        DataFrame df = session.translator().translate(root);
        Schema schema = ConnectSession.output(df.logicalPlan()).schema();
        operation.emit(response().setSchema(SparkTypes.toProto(schema)).build());
        try (ResultStream stream = session.open(df, scope());
                ArrowIpc.Encoder encoder = new ArrowIpc.Encoder(stream.schema(), allocator)) {
            byte[] header = encoder.start();
            long offset = 0;
            Batch batch;
            while ((batch = stream.next()) != null) {
                try (Batch b = batch) {
                    if (b.rowCount() == 0) {
                        continue;
                    }
                    if (!emitBatch(concat(header, encoder.write(b)), b.rowCount(), offset)) {
                        return;
                    }
                    offset += b.rowCount();
                }
            }
            if (offset == 0) {
                emitBatch(concat(header, new byte[0]), 0, 0);
            }
        }
    }

    /** The scope of the operation's queries: interrupting it cancels the one running. */
    private QueryScope scope() {
        return new QueryScope() {
            @Override
            public void started(String queryId) {
                operation.onCancel(() -> session.cancelQuery(queryId));
            }

            @Override
            public void ended(String queryId) {
                operation.onCancel(() -> { });
            }
        };
    }

    private boolean emitBatch(byte[] ipc, long rows, long offset) {
        return operation.emit(response().setArrowBatch(ExecutePlanResponse.ArrowBatch.newBuilder()
                .setRowCount(rows).setData(UnsafeByteOperations.unsafeWrap(ipc)).setStartOffset(offset)).build()); // ipc is ours alone: no copy
    }

    private static byte[] concat(byte[] header, byte[] batch) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(header.length + batch.length + END_OF_STREAM.length);
        out.writeBytes(header);
        out.writeBytes(batch);
        out.writeBytes(END_OF_STREAM);
        return out.toByteArray();
    }

    private void command(io.sluice.connect.proto.Command command) {
        switch (command.getCommandTypeCase()) {
            case SQL_COMMAND -> sqlCommand(command.getSqlCommand());
            case CREATE_DATAFRAME_VIEW -> createView(command.getCreateDataframeView());
            case REGISTER_FUNCTION -> session.code().register(command.getRegisterFunction());
            case WRITE_OPERATION -> new WriteCommands(session, scope()).write(command.getWriteOperation());
            case WRITE_OPERATION_V2 -> new WriteCommands(session, scope()).writeV2(command.getWriteOperationV2());
            default -> throw new SluiceException("Spark Connect command " + command.getCommandTypeCase().name().toLowerCase(Locale.ROOT)
                    + " is not supported by Sluice");
        }
    }

    /**
     * {@code spark.sql(text)}: a query is answered by its own relation (the client builds on it and
     * runs it later); any other statement runs now and is answered by its result as a local relation.
     */
    private void sqlCommand(SqlCommand sql) {
        Relation input = sql.hasInput() ? sql.getInput() : Relation.newBuilder().setSql(SQL.newBuilder()
                .setQuery(sql.getSql()).putAllArgs(sql.getArgsMap()).addAllPosArgs(sql.getPosArgsList())
                .putAllNamedArguments(sql.getNamedArgumentsMap()).addAllPosArguments(sql.getPosArgumentsList())).build();
        Relation answer = input;
        if (input.hasSql()) {
            ExpressionTranslator constants = session.constants();
            String text = SqlArguments.bind(input.getSql(), e -> constants.translate(e, ExpressionTranslator.NO_INPUT));
            PreparedSql prepared = session.prepareSql(text, QueryScope.NONE);
            if (prepared.plan() == null) {
                answer = Relation.newBuilder().setLocalRelation(LocalRelation.newBuilder()
                        .setData(ByteString.copyFrom(prepared.result()))).build();
            }
        }
        operation.emit(response().setSqlCommandResult(ExecutePlanResponse.SqlCommandResult.newBuilder().setRelation(answer))
                .build());
    }

    private void createView(CreateDataFrameViewCommand view) {
        DataFrame df = session.translator().translate(view.getInput());
        if (!view.getReplace() && session.catalog().view(view.getName()) != null) {
            throw new SluiceException("[TEMP_TABLE_OR_VIEW_ALREADY_EXISTS] temporary view '" + view.getName()
                    + "' already exists; use createOrReplaceTempView");
        }
        session.catalog().registerView(view.getName(), ConnectSession.output(df.logicalPlan()), true);
    }
}
