package io.sluice.coordinator;

import io.sluice.cluster.protocol.WorkerCommand;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.Map;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * A worker registered with the dispatcher: its slots and the attempts holding them, its shuffle
 * server, and its registration's session token. An unreachable one gets no tasks until it is
 * reachable again or removed. Confined to the dispatcher actor.
 */
final class RegisteredWorker {
    final String id;
    final ActorRef<WorkerCommand> ref;
    final int slots;
    final long incarnation;
    final String shuffleHost;
    final int shufflePort;
    /** This registration's token: commands carry it, and reports must return it. */
    final String session;
    /** The attempts holding this worker's slots (running, or given up on but not yet ended), by id: their job. */
    final Map<String, String> running = new HashMap<>();
    boolean reachable = true;
    /** When the dispatcher last heard from it (registration or a task report), epoch ms. */
    long lastHeard = System.currentTimeMillis();
    /** Its task memory at its last report, or null before one. */
    io.sluice.cluster.protocol.WorkerMemory memory;

    RegisteredWorker(String id, ActorRef<WorkerCommand> ref, int slots, long incarnation, String shuffleHost,
            int shufflePort, String session) {
        this.shuffleHost = shuffleHost;
        this.shufflePort = shufflePort;
        this.id = id;
        this.ref = ref;
        this.slots = slots;
        this.incarnation = incarnation;
        this.session = session;
    }

    /** A report arrived from it, with its task memory now (null: not sent). */
    void heard(io.sluice.cluster.protocol.WorkerMemory now) {
        lastHeard = System.currentTimeMillis();
        if (now != null) {
            memory = now;
        }
    }

    /** Whether this is the member at {@code address} with {@code uid} (any uid when its own is unknown). */
    boolean is(Address address, long uid) {
        return ref.path().address().equals(address) && (incarnation == 0 || incarnation == uid);
    }

    /** Whether {@code token} is this registration's session, compared in constant time. */
    boolean holdsSession(String token) {
        return token != null && MessageDigest.isEqual(token.getBytes(StandardCharsets.UTF_8),
                session.getBytes(StandardCharsets.UTF_8));
    }

    /** The host it joined the cluster with (its shuffle server's when its address has none): where its tasks read locally. */
    String host() {
        return ref.path().address().host().getOrElse(() -> shuffleHost);
    }

    /** The {@code host:port} it joined the cluster with (its shuffle server's when its address has none). */
    String address() {
        org.apache.pekko.actor.Address a = ref.path().address();
        return a.port().isDefined() ? host() + ":" + a.port().get() : shuffleServer();
    }

    /** The {@code host:port} of its shuffle server. */
    String shuffleServer() {
        return shuffleHost + ":" + shufflePort;
    }

    String id() {
        return id;
    }

    ActorRef<WorkerCommand> ref() {
        return ref;
    }

    int slots() {
        return slots;
    }

    Map<String, String> running() {
        return running;
    }
}
