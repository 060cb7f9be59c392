package io.sluice.testfixtures;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A headless Chromium a test starts, drives and stops: it loads pages, evaluates JavaScript in them
 * (to type, click and read the DOM) and takes screenshots, over the DevTools protocol (JSON over a
 * WebSocket, here {@code java.net.http}). Every wait is bounded; closing it ends the browser process
 * (forcibly after 10 seconds). Find the binary with {@link #binary()}: tests skip where there is none.
 */
public final class HeadlessChromium implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern LISTENING = Pattern.compile("DevTools listening on (ws://\\S+)");
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);

    private final Process process;
    private final WebSocket socket;
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();

    private HeadlessChromium(Process process, URI page) throws Exception {
        this.process = process;
        this.socket = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10))
                .buildAsync(page, new Listener()).get(20, TimeUnit.SECONDS);
        command("Page.enable", JSON.createObjectNode());
        command("Runtime.enable", JSON.createObjectNode());
    }

    /**
     * The Chromium binary: {@code SLUICE_CHROMIUM} if set, else the first of {@code chromium},
     * {@code chromium-browser}, {@code google-chrome} on the {@code PATH}; empty when none exists.
     */
    public static Optional<Path> binary() {
        String configured = System.getenv("SLUICE_CHROMIUM");
        if (configured != null && !configured.isBlank()) {
            return Optional.of(Path.of(configured)).filter(Files::isExecutable);
        }
        String path = System.getenv().getOrDefault("PATH", "");
        for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
            for (String dir : path.split(File.pathSeparator)) {
                Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
                if (Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Starts {@code binary} headless with a fresh profile under {@code profile} (no cookies from
     * earlier runs) and a {@code width} x {@code height} window, and connects to its blank page.
     */
    public static HeadlessChromium start(Path binary, Path profile, int width, int height) throws Exception {
        Files.createDirectories(profile);
        Process process = new ProcessBuilder(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
                "--user-data-dir=" + profile.toAbsolutePath(), "--window-size=" + width + "," + height, "about:blank")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            URI browser = awaitListening(process);
            URI page = pageTarget(browser);
            return new HeadlessChromium(process, page);
        } catch (Exception | Error e) {
            process.destroyForcibly();
            throw e;
        }
    }

    /** The browser's DevTools address, from its stderr (within 60 seconds); stderr is drained afterwards. */
    private static URI awaitListening(Process process) throws Exception {
        CompletableFuture<URI> found = new CompletableFuture<>();
        StringBuilder seen = new StringBuilder();
        Thread reader = new Thread(() -> {
            try (BufferedReader err = new BufferedReader(new InputStreamReader(process.getErrorStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = err.readLine()) != null) {
                    Matcher m = LISTENING.matcher(line);
                    if (m.find()) {
                        found.complete(URI.create(m.group(1)));
                    } else if (!found.isDone() && seen.length() < 8192) {
                        seen.append(line).append('\n');
                    }
                }
            } catch (IOException e) {
                found.completeExceptionally(e);
            }
            found.completeExceptionally(new IllegalStateException("chromium exited before DevTools listened:\n" + seen));
        }, "chromium-stderr");
        reader.setDaemon(true);
        reader.start();
        try {
            return found.get(60, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException("chromium did not open DevTools within 60 s:\n" + seen, e);
        }
    }

    /** The WebSocket of the browser's first page, from its {@code /json/list}. */
    private static URI pageTarget(URI browser) throws Exception {
        URI list = URI.create("http://" + browser.getHost() + ":" + browser.getPort() + "/json/list");
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(list).timeout(Duration.ofSeconds(10))
                    .build(), HttpResponse.BodyHandlers.ofString());
            for (JsonNode target : JSON.readTree(response.body())) {
                if ("page".equals(target.path("type").asText())) {
                    return URI.create(target.path("webSocketDebuggerUrl").asText());
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("chromium lists no page target: " + response.body());
            }
            Thread.sleep(100);
        }
    }

    /** Loads {@code url} and waits (at most {@code timeout}) until its document has loaded. */
    public void navigate(String url, Duration timeout) {
        ObjectNode params = JSON.createObjectNode().put("url", url);
        JsonNode result = command("Page.navigate", params);
        if (result.hasNonNull("errorText")) {
            throw new IllegalStateException("chromium could not load " + url + ": " + result.get("errorText").asText());
        }
        await("document.readyState === 'complete' && location.href !== 'about:blank'", timeout);
    }

    /** The value of a JavaScript expression in the page (promises awaited), as JSON; a thrown error fails. */
    public JsonNode evaluate(String expression) {
        ObjectNode params = JSON.createObjectNode().put("expression", expression).put("returnByValue", true)
                .put("awaitPromise", true);
        JsonNode result = command("Runtime.evaluate", params);
        if (result.has("exceptionDetails")) {
            throw new IllegalStateException("the page threw on `" + expression + "`: " + result.get("exceptionDetails"));
        }
        return result.path("result").path("value");
    }

    /** Waits until {@code expression} is truthy in the page, polling every 100 ms for at most {@code timeout}. */
    public JsonNode await(String expression, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            try {
                last = evaluate("(" + expression + ")");
                if (truthy(last)) {
                    return last;
                }
            } catch (IllegalStateException e) {
                // the page is between documents: try again
                last = JSON.getNodeFactory().textNode(e.getMessage());
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + expression, e);
            }
        }
        throw new IllegalStateException("not true within " + timeout + ": " + expression + " (last: " + last
                + "; page " + evaluate("location.href + ' ' + document.title").asText() + ")");
    }

    private static boolean truthy(JsonNode value) {
        return value != null && !value.isMissingNode() && !value.isNull()
                && !(value.isBoolean() && !value.asBoolean()) && !(value.isNumber() && value.asDouble() == 0)
                && !(value.isTextual() && value.asText().isEmpty());
    }

    /** A PNG of the page as shown (the whole page when {@code fullPage}), written to {@code file}. */
    public void screenshot(Path file, boolean fullPage) {
        ObjectNode params = JSON.createObjectNode().put("format", "png").put("captureBeyondViewport", fullPage);
        if (fullPage) {
            JsonNode size = evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]");
            params.putObject("clip").put("x", 0).put("y", 0).put("width", size.get(0).asInt())
                    .put("height", size.get(1).asInt()).put("scale", 1);
        }
        byte[] png = Base64.getDecoder().decode(command("Page.captureScreenshot", params).path("data").asText());
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.write(file, png);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the screenshot " + file, e);
        }
    }

    /** Sends one DevTools command and waits (at most 30 seconds) for its result. */
    public JsonNode command(String method, ObjectNode params) {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> reply = new CompletableFuture<>();
        pending.put(id, reply);
        ObjectNode message = JSON.createObjectNode().put("id", id).put("method", method);
        message.set("params", params);
        try {
            socket.sendText(message.toString(), true).get(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            JsonNode answer = reply.get(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            if (answer.has("error")) {
                throw new IllegalStateException("chromium refused " + method + ": " + answer.get("error"));
            }
            return answer.path("result");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during " + method, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("chromium did not answer " + method + " within " + COMMAND_TIMEOUT, e);
        } finally {
            pending.remove(id);
        }
    }

    @Override
    public void close() throws InterruptedException {
        socket.abort();
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        pending.values().forEach(f -> f.completeExceptionally(new IllegalStateException("chromium closed")));
    }

    /** Collects (possibly fragmented) messages and completes the command each answers; events are ignored. */
    private final class Listener implements WebSocket.Listener {
        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                String text = partial.toString();
                partial.setLength(0);
                try {
                    JsonNode message = JSON.readTree(text);
                    if (message.has("id")) {
                        CompletableFuture<JsonNode> reply = pending.get(message.get("id").asInt());
                        if (reply != null) {
                            reply.complete(message);
                        }
                    }
                } catch (IOException e) {
                    // not JSON: no command waits for it
                }
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            pending.values().forEach(f -> f.completeExceptionally(error));
        }
    }

    /** For messages: the process, to tell which browser a failure came from. */
    @Override
    public String toString() {
        return "chromium pid " + process.pid();
    }
}
