package io.sluice.shuffle;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a {@link ShuffleServer}'s connections count: updated by every {@link ShuffleConnection} on
 * its event loop, read by the server's accessors from any thread. All counters are thread-safe.
 */
final class ShuffleServerCounters {
    final AtomicInteger activeConnections = new AtomicInteger();
    final AtomicInteger openFiles = new AtomicInteger();
    final LongAdder rejectedBusy = new LongAdder();
    final LongAdder authFailures = new LongAdder();
    final LongAdder authTimeouts = new LongAdder();
    final LongAdder blocksServed = new LongAdder();
    final LongAdder bytesServed = new LongAdder();
    final LongAdder connectionsAccepted = new LongAdder();
    final ConcurrentHashMap<String, LongAdder> blocksServedTo = new ConcurrentHashMap<>();
}
