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

    /** The tag the client gave its queries, by which it finds them in listings (progress); null if none. */
    default String tag() {
        return null;
    }

    /** This scope with {@code tag} as its queries' tag. */
    default QueryScope tagged(String tag) {
        QueryScope outer = this;
        return new QueryScope() {
            @Override
            public void started(String queryId) {
                outer.started(queryId);
            }

            @Override
            public void ended(String queryId) {
                outer.ended(queryId);
            }

            @Override
            public String tag() {
                return tag;
            }
        };
    }
}
