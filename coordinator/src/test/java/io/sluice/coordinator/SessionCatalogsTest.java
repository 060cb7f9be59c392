package io.sluice.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.logical.plan.EmptyRelation;
import io.sluice.sql.CatalogDatabase;
import io.sluice.sql.InMemoryCatalog;
import org.junit.jupiter.api.Test;

/**
 * Sessions of the shared catalog share its databases but not their current database or their
 * temporary views; sessions of their own see shared names and keep what they create to themselves.
 */
class SessionCatalogsTest {
    private final InMemoryCatalog shared = new InMemoryCatalog();
    private final SessionCatalogs catalogs = new SessionCatalogs(shared, () -> InMemoryCatalog.layeredOver(shared));

    @Test
    void sharedSessionsShareDatabasesButNotTheirCurrentDatabaseOrTemporaryViews() {
        InMemoryCatalog alice = catalogs.resolve("alice", "shared");
        InMemoryCatalog bob = catalogs.resolve("bob", "shared");
        assertThat(catalogs.resolve("alice", "shared")).isSameAs(alice);
        alice.createDatabase(CatalogDatabase.named("sales"), false);
        alice.use("sales");
        assertThat(alice.currentDatabase()).isEqualTo("sales");
        assertThat(bob.currentDatabase()).isEqualTo("default");
        assertThat(bob.databaseNames()).containsExactly("default", "sales");
        assertThat(shared.databaseNames()).containsExactly("default", "sales");
        alice.registerView("mine", new EmptyRelation(io.sluice.common.types.Schema.of()), false);
        assertThat(alice.view("mine")).isNotNull();
        assertThat(bob.view("mine")).isNull();
    }

    @Test
    void ownSessionsKeepWhatTheyCreate() {
        shared.createDatabase(CatalogDatabase.named("sales"), false);
        InMemoryCatalog carol = catalogs.resolve("carol", null);
        carol.createDatabase(CatalogDatabase.named("scratch"), false);
        assertThat(carol.databaseNames()).containsExactly("default", "sales", "scratch");
        assertThat(shared.databaseNames()).containsExactly("default", "sales");
        assertThatThrownBy(() -> carol.dropDatabase("sales", false, false))
                .hasMessage("database 'sales' belongs to the shared catalog; this session cannot drop it");
    }
}
