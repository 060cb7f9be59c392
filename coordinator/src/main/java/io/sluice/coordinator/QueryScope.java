package io.sluice.coordinator;

/**
 * Who asked for a query, told its id while it runs: an HTTP connection keeps the ids of its
 * running queries so that they are cancelled when the client goes away.
 */
public interface QueryScope {
    /** A scope nobody watches. */
    QueryScope NONE = new QueryScope() {
        @Override
        public void started(String queryId) {
        }

        @Override
        public void ended(String queryId) {
        }
    };

    void started(String queryId);

    void ended(String queryId);
}
