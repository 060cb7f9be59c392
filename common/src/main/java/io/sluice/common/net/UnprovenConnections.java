package io.sluice.common.net;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The connections of one server that have not yet proven the cluster secret, limited per source
 * address and in total. Over a limit the <em>oldest</em> unproven connection (of that address, or
 * overall) is closed to admit the new one, rather than the new one refused: a client that shares
 * its address with a flood (every test, every host behind one NAT) still gets its turn to prove
 * the secret, and a flood must open connections faster than a client sends its first request to
 * starve it. A connection that proves the secret leaves this set and is no longer counted, so
 * authenticated traffic never competes with unauthenticated connections. Each server also closes a
 * connection still unproven after {@link Limits#deadline()}. Thread-safe; closers run outside the
 * lock.
 */
public final class UnprovenConnections {
    /** At most {@code perAddress} unproven connections from one address and {@code total} in all. */
    public record Limits(int perAddress, int total, Duration deadline) {
        public Limits {
            requireNonNull(deadline, "deadline is null");
            if (perAddress < 1 || total < perAddress || deadline.isNegative() || deadline.isZero()) {
                throw new IllegalArgumentException("bad limits on unauthenticated connections: perAddress="
                        + perAddress + " total=" + total + " deadline=" + deadline);
            }
        }
    }

    /** One admitted connection, until it proves the secret or closes. */
    public final class Ticket {
        private final String address;
        private final Runnable close;

        private Ticket(String address, Runnable close) {
            this.address = address;
            this.close = close;
        }

        /**
         * The connection proved the secret: it is no longer counted. False when it had been evicted
         * already (its closer ran or runs), true otherwise.
         */
        public boolean proven() {
            return remove(this);
        }

        /** The connection closed: forget it (proven or not, any number of times). */
        public void closed() {
            remove(this);
        }
    }

    private final Limits limits;
    private final LinkedHashSet<Ticket> byAge = new LinkedHashSet<>();
    private final Map<String, LinkedHashSet<Ticket>> byAddress = new HashMap<>();
    private long evicted;

    public UnprovenConnections(Limits limits) {
        this.limits = requireNonNull(limits, "limits is null");
    }

    public Limits limits() {
        return limits;
    }

    /**
     * Admits a new connection from {@code address}, closing the oldest ones past the limits (with
     * their {@code close}); {@code close} closes this one should it be evicted in turn.
     */
    public Ticket admit(String address, Runnable close) {
        requireNonNull(address, "address is null");
        requireNonNull(close, "close is null");
        Ticket ticket = new Ticket(address, close);
        List<Ticket> victims = new ArrayList<>();
        synchronized (this) {
            LinkedHashSet<Ticket> same = byAddress.computeIfAbsent(address, a -> new LinkedHashSet<>());
            while (same.size() >= limits.perAddress()) {
                victims.add(same.iterator().next());
                forget(victims.get(victims.size() - 1));
            }
            while (byAge.size() >= limits.total()) {
                Ticket oldest = byAge.iterator().next();
                victims.add(oldest);
                forget(oldest);
            }
            byAge.add(ticket);
            byAddress.computeIfAbsent(address, a -> new LinkedHashSet<>()).add(ticket);
            evicted += victims.size();
        }
        for (Ticket victim : victims) {
            victim.close.run();
        }
        return ticket;
    }

    /** Unproven connections now. */
    public synchronized int size() {
        return byAge.size();
    }

    /** Connections closed so far to make room for newer ones. */
    public synchronized long evicted() {
        return evicted;
    }

    private synchronized boolean remove(Ticket ticket) {
        if (!byAge.contains(ticket)) {
            return false;
        }
        forget(ticket);
        return true;
    }

    private void forget(Ticket ticket) {
        byAge.remove(ticket);
        LinkedHashSet<Ticket> same = byAddress.get(ticket.address);
        if (same != null) {
            same.remove(ticket);
            if (same.isEmpty()) {
                byAddress.remove(ticket.address);
            }
        }
    }
}
