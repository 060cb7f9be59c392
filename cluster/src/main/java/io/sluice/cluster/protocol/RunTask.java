package io.sluice.cluster.protocol;

import static java.util.Objects.requireNonNull;

import org.apache.pekko.actor.typed.ActorRef;

/** Asks a worker to run a task; the worker answers {@link TaskFinished} to {@code replyTo}. */
public record RunTask(TaskDescription task, ActorRef<CoordinatorCommand> replyTo) implements WorkerCommand {
    public RunTask {
        requireNonNull(task, "task is null");
        requireNonNull(replyTo, "replyTo is null");
    }
}
