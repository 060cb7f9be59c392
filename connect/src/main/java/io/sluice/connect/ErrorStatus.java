package io.sluice.connect;

import com.google.protobuf.Any;
import com.google.rpc.Code;
import com.google.rpc.ErrorInfo;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import io.sluice.common.SluiceException;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A failure as Spark's clients expect it: a gRPC status whose {@code ErrorInfo} names the Spark
 * exception class to raise ({@code AnalysisException} for a bad plan, {@code ParseException} for bad
 * SQL, {@code SparkException} for a query that failed running), with Sluice's message, which names
 * the column, table or function at fault. An unexpected failure is logged here and answered by its
 * message only, never a stack.
 */
final class ErrorStatus {
    private static final Logger LOG = LoggerFactory.getLogger(ErrorStatus.class);
    /** gRPC carries the message in a header; clients refuse large ones. */
    private static final int MAX_MESSAGE = 4000;

    static final String ANALYSIS = "org.apache.spark.sql.AnalysisException";
    static final String PARSE = "org.apache.spark.sql.catalyst.parser.ParseException";
    static final String SPARK = "org.apache.spark.SparkException";
    static final String ARITHMETIC = "org.apache.spark.SparkArithmeticException";
    static final String NUMBER_FORMAT = "org.apache.spark.SparkNumberFormatException";

    private ErrorStatus() {
    }

    static StatusRuntimeException of(Throwable t) {
        if (t instanceof StatusRuntimeException s) {
            return s;
        }
        String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        String sparkClass;
        if (t instanceof SluiceException) {
            sparkClass = classOf(message);
        } else {
            LOG.warn("Spark Connect request failed", t);
            sparkClass = SPARK;
            message = "internal error: " + message;
        }
        return of(Code.INTERNAL, sparkClass, message);
    }

    static StatusRuntimeException of(Code code, String sparkClass, String message) {
        String text = message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE) + "..." : message;
        ErrorInfo.Builder info = ErrorInfo.newBuilder()
                .setReason(sparkClass)
                .setDomain("org.apache.spark")
                .putMetadata("classes", classChain(sparkClass));
        SparkErrorClasses.of(message).ifPresent(e -> info.putMetadata("errorClass", e.errorClass())
                .putMetadata("messageParameters", e.parametersJson()));
        com.google.rpc.Status status = com.google.rpc.Status.newBuilder()
                .setCode(code.getNumber())
                .setMessage(text)
                .addDetails(Any.pack(info.build()))
                .build();
        return StatusProto.toStatusRuntimeException(status);
    }

    /**
     * The {@code classes} a Spark server sends: the exception's class and its supertypes. Spark's
     * client builds its exception from the first one it knows, and it knows the Java supertypes
     * ({@code java.lang.ArithmeticException} becomes a {@code SparkArithmeticException}), not every
     * Spark subclass.
     */
    private static String classChain(String sparkClass) {
        List<String> chain = switch (sparkClass) {
            case ARITHMETIC -> List.of(ARITHMETIC, "java.lang.ArithmeticException", "java.lang.RuntimeException");
            case NUMBER_FORMAT -> List.of(NUMBER_FORMAT, "java.lang.NumberFormatException",
                    "java.lang.IllegalArgumentException", "java.lang.RuntimeException");
            default -> List.of(sparkClass);
        };
        return chain.stream().map(c -> "\"" + c + "\"").collect(Collectors.joining(",", "[", "]"));
    }

    private static String classOf(String message) {
        if (message.contains("[DIVIDE_BY_ZERO]") || message.contains("[REMAINDER_BY_ZERO]")
                || message.contains("[ARITHMETIC_OVERFLOW]") || message.contains("[CAST_OVERFLOW]")) {
            return ARITHMETIC;
        }
        if (message.contains("[CAST_INVALID_INPUT]")) {
            return NUMBER_FORMAT;
        }
        String m = message.toLowerCase(Locale.ROOT);
        if (m.contains("parse error") || m.contains("syntax error") || m.contains("encountered \"")
                || m.startsWith("sql parse") || m.contains("was expecting")) {
            return PARSE;
        }
        if (m.contains("task") && m.contains("failed") || m.contains("cancelled") || m.contains("memory limit")) {
            return SPARK;
        }
        return ANALYSIS;
    }
}
