package io.sluice.api;

import static io.sluice.api.Functions.col;
import static io.sluice.api.Functions.udf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.logical.expr.UserFunction;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A remote session calls a user function whose class exists only on the client (compiled here, loaded
 * from a directory no node has on its class path): the class travels in a jar with the plan and the
 * workers load it from those bytes. A coordinator that does not run client code refuses such a plan
 * naming the function and the flag, and keeps serving.
 */
class RemoteUserFunctionIT {
    @TempDir
    Path dir;

    @Test
    void aRemoteSessionShipsItsUserFunctionClass() throws Exception {
        ClusterDeployModeTest.buildJar(dir.resolve("udf"), Map.of("remoteudf/Shout.java", """
                package remoteudf;
                public class Shout implements io.sluice.logical.expr.UserFunction {
                    public Object call(Object[] args) {
                        return args[0] == null ? null : ((String) args[0]).toUpperCase() + "!";
                    }
                }
                """));
        try (Session cluster = Session.local(LocalCluster.Options.of(2).withHttpPort(0));
                URLClassLoader client = new URLClassLoader(new URL[] {dir.resolve("udf/classes").toUri().toURL()},
                        RemoteUserFunctionIT.class.getClassLoader())) {
            Class<? extends UserFunction> shout = client.loadClass("remoteudf.Shout").asSubclass(UserFunction.class);
            assertThatThrownBy(() -> Class.forName("remoteudf.Shout")).isInstanceOf(ClassNotFoundException.class);
            int port = cluster.localCluster().coordinator().httpPort();
            try (Session remote = Session.connect("127.0.0.1", port, cluster.localCluster().authSecret())) {
                DataFrame names = remote.sql("SELECT 'ann' AS name UNION ALL SELECT 'bob' UNION ALL SELECT NULL");
                DataFrame shouted = names.select(col("name"), udf(shout, DataType.UTF8, col("name")).as("loud"));
                assertThatThrownBy(shouted::collect).isInstanceOf(SluiceException.class)
                        .hasMessageContaining("user function shout (remoteudf.Shout)")
                        .hasMessageContaining("--allow-job-jars");
                assertThat(remote.sql("SELECT 1 AS one").collect().rows()).hasSize(1);

                cluster.localCluster().allowJobJars();
                assertThat(shouted.orderBy(col("name").asc()).collect().rows()).containsExactly(
                        List.of("ann", "ANN!"), List.of("bob", "BOB!"), java.util.Arrays.asList(null, null));
            }
        }
    }
}
