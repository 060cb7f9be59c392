package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Pairs queued tasks with free slots, one at a time, as {@link TaskPlacement} decides: workers are
 * tried from a rotating start, so tasks spread out, and a task waiting for a slot on its hosts
 * keeps its place in the queue while later tasks go. Confined to the dispatcher actor.
 */
final class SlotAssigner {
    /** A task and the worker it runs on; no worker for a cancelled task, which is dropped. */
    record Assignment(CoordinatorActor.Pending task, RegisteredWorker worker) {
    }

    private final TaskPlacement placement;
    private int nextWorker;

    SlotAssigner(TaskPlacement placement) {
        this.placement = requireNonNull(placement, "placement is null");
    }

    /** One dispatch round over {@code workers} at time {@code now}. */
    Round round(List<RegisteredWorker> workers, ExcludeList excludes, long now) {
        return new Round(workers, excludes, now);
    }

    final class Round {
        private final List<RegisteredWorker> workers;
        private final ExcludeList excludes;
        private final long now;
        private final boolean anyIncluded;
        private final Set<String> liveHosts = new HashSet<>();
        private long wakeAt = Long.MAX_VALUE;

        private Round(List<RegisteredWorker> workers, ExcludeList excludes, long now) {
            this.workers = List.copyOf(workers);
            this.excludes = excludes;
            this.now = now;
            boolean included = false;
            for (RegisteredWorker w : workers) {
                included |= w.reachable && !excludes.isExcluded(w.id(), now);
                if (w.reachable) {
                    liveHosts.add(w.host());
                }
            }
            this.anyIncluded = included;
        }

        /** Removes from {@code queue} the next task that takes a free slot now, with its worker; null when none does. */
        Assignment next(TaskQueue<CoordinatorActor.Pending> queue) {
            List<RegisteredWorker> free = new ArrayList<>();
            List<Boolean> excluded = new ArrayList<>();
            for (int i = 0; i < workers.size(); i++) {
                RegisteredWorker w = workers.get((nextWorker + i) % workers.size());
                if (w.reachable && w.running().size() < w.slots()) {
                    free.add(w);
                    excluded.add(anyIncluded && excludes.isExcluded(w.id(), now));
                }
            }
            if (free.isEmpty()) {
                return null;
            }
            RegisteredWorker[] chosen = new RegisteredWorker[1];
            CoordinatorActor.Pending task = queue.poll(p -> {
                chosen[0] = null;
                if (p.launch().result().isDone()) {
                    return true; // cancelled
                }
                List<TaskPlacement.Slot> slots = new ArrayList<>(free.size());
                for (int i = 0; i < free.size(); i++) {
                    slots.add(new TaskPlacement.Slot(free.get(i).host(),
                            !excluded.get(i) && !p.failedOn().contains(free.get(i).id()), !excluded.get(i)));
                }
                List<String> hosts = p.launch().preferredHosts();
                long waited = now - p.queuedAt();
                int i = placement.choose(hosts, waited, slots, liveHosts);
                if (i == TaskPlacement.NONE) {
                    if (placement.waitsForLocality(hosts, waited, liveHosts)) {
                        wakeAt = Math.min(wakeAt, now + placement.remainingWait(waited));
                    }
                    return false;
                }
                chosen[0] = free.get(i);
                return true;
            });
            if (task == null) {
                return null;
            }
            if (chosen[0] != null) {
                nextWorker = (workers.indexOf(chosen[0]) + 1) % workers.size();
            }
            return new Assignment(task, chosen[0]);
        }

        /** When the earliest task passed over for its hosts stops waiting; {@code Long.MAX_VALUE} if none was. */
        long wakeAt() {
            return wakeAt;
        }
    }
}
