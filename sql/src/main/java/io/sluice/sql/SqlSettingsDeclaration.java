package io.sluice.sql;

import io.sluice.common.settings.Scope;
import io.sluice.common.settings.Setting;
import io.sluice.common.settings.SettingType;
import io.sluice.common.settings.Settings;
import io.sluice.common.settings.SettingsDeclaration;
import io.sluice.common.settings.SparkConfigKeys;
import io.sluice.common.types.ArithmeticMode;
import io.sluice.logical.function.CallContext;
import java.time.Instant;
import java.util.List;

/** How SQL text is read: whose semantics where dialects disagree, the session time zone, ANSI mode, Spark's own keys. */
public final class SqlSettingsDeclaration implements SettingsDeclaration {
    public static final Setting<SqlDialect> DIALECT = Setting.session("sluice.sql.dialect",
            SettingType.enumeration(SqlDialect.class), SqlDialect.SPARK,
            "whose semantics SQL has where dialects disagree: `spark` (NULLs first in an ascending sort and last "
                    + "in a descending one, a cast of -7.5 to an integer gives -7, double-quoted text is a string) "
                    + "or `ansi` (as DuckDB: NULLs last in both directions, casts round, double quotes delimit "
                    + "names); docs/spark-dialect.md");
    public static final Setting<String> SESSION_TIME_ZONE = Setting.session(SparkConfigKeys.SLUICE_SESSION_TIME_ZONE,
            SettingType.STRING, "UTC", "the session's time zone, for timestamps shown or parsed with a zone "
                    + "(`spark.sql.session.timeZone`)");
    public static final Setting<Boolean> ANSI_ENABLED = Setting.session(SparkConfigKeys.SLUICE_ANSI_ENABLED,
            SettingType.BOOLEAN, true, "in the spark dialect, Spark 4's ANSI mode (`spark.sql.ansi.enabled`): integer "
                    + "overflow, division by zero and a malformed cast are errors with Spark's error classes; false gives "
                    + "Spark 3's wrap-around and NULLs. The ansi dialect always has overflow and bad casts as errors and "
                    + "division by zero as NULL, as DuckDB");
    public static final Setting<String> SPARK_KEYS = Setting.family(SparkConfigKeys.FAMILY, Scope.SESSION,
            "any other Spark key, kept and echoed by `SET` as Spark does; it means nothing to Sluice");

    /**
     * What a statement's expressions depend on in a session with {@code settings}: its time zone, now,
     * and Spark's ANSI mode or not (which {@link SqlFrontEnd#parse} applies in the spark dialect only).
     */
    public static CallContext callContext(Settings settings) {
        return new CallContext(settings.get(SESSION_TIME_ZONE), Instant.now(),
                settings.get(ANSI_ENABLED) ? ArithmeticMode.ANSI : ArithmeticMode.LEGACY);
    }

    @Override
    public List<Setting<?>> settings() {
        return List.of(DIALECT, SESSION_TIME_ZONE, ANSI_ENABLED, SPARK_KEYS);
    }
}
