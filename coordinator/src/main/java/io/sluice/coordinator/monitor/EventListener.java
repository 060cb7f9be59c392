package io.sluice.coordinator.monitor;

/** Told each {@link QueryEvent}, in order, on the {@link EventBus}'s thread. */
@FunctionalInterface
public interface EventListener {
    void onEvent(QueryEvent event);

    /** The bus stops: write out what is buffered. */
    default void close() {
    }
}
