package io.sluice.sql;

import io.sluice.common.settings.Scope;
import io.sluice.common.settings.Setting;
import io.sluice.common.settings.SettingType;
import io.sluice.common.settings.SettingsDeclaration;
import io.sluice.common.settings.SparkConfigKeys;
import java.util.List;

/** How SQL text is read: whose semantics where dialects disagree, the session time zone, Spark's own keys. */
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
    public static final Setting<Boolean> ANSI_MODE = Setting.session(SparkConfigKeys.SLUICE_ANSI_MODE,
            SettingType.BOOLEAN, true, "integer overflow and division by zero are errors, as Spark 4's ANSI mode "
                    + "(`spark.sql.ansi.enabled`); false gives NULL for a division by zero");
    public static final Setting<String> SPARK_KEYS = Setting.family(SparkConfigKeys.FAMILY, Scope.SESSION,
            "any other Spark key, kept and echoed by `SET` as Spark does; it means nothing to Sluice");

    @Override
    public List<Setting<?>> settings() {
        return List.of(DIALECT, SESSION_TIME_ZONE, ANSI_MODE, SPARK_KEYS);
    }
}
