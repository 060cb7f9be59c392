package io.sluice.cli;

import io.sluice.api.Session;
import java.nio.file.Files;
import java.nio.file.Path;

/** A job for {@code sluice submit} in client mode: writes its one query's answer to the file in its first argument. */
public final class HttpsSubmitJob {
    private HttpsSubmitJob() {
    }

    public static void main(String[] args) throws Exception {
        try (Session session = Session.create()) {
            Object answer = session.sql("SELECT 6 * 7 AS x").collect().rows().get(0).get(0);
            Files.writeString(Path.of(args[0]), String.valueOf(answer));
        }
    }
}
