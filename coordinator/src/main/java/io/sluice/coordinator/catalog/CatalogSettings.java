package io.sluice.coordinator.catalog;

import static io.sluice.common.settings.SettingType.STRING;

import io.sluice.common.settings.Setting;
import io.sluice.common.settings.SettingsDeclaration;
import java.util.List;

/** The persistent catalog's settings. */
public final class CatalogSettings implements SettingsDeclaration {
    public static final Setting<String> WAREHOUSE_DIR = Setting.node("sluice.sql.warehouse-dir", STRING, "",
            "where managed tables (`CREATE TABLE` without `LOCATION`) keep their files, as `<dir>/<database>.db/<table>`; "
                    + "any Hadoop file system URI under the allowed roots. Empty: `<data-dir>/warehouse` (the coordinator's "
                    + "`--data-dir`), or a temporary directory for an embedded cluster without one");

    @Override
    public List<Setting<?>> settings() {
        return List.of(WAREHOUSE_DIR);
    }
}
