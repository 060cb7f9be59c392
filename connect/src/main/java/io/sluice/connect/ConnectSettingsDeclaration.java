package io.sluice.connect;

import io.sluice.common.net.UnprovenLimitSettings;
import io.sluice.common.settings.Setting;
import io.sluice.common.settings.SettingsDeclaration;
import java.util.List;

/** The Spark Connect port's limits on connections that have not yet made an authenticated call ({@link UnprovenTransports}). */
public final class ConnectSettingsDeclaration implements SettingsDeclaration {
    public static final UnprovenLimitSettings UNAUTHENTICATED = UnprovenLimitSettings.declare("sluice.connect",
            "Spark Connect port", 64, 256);

    @Override
    public List<Setting<?>> settings() {
        return UNAUTHENTICATED.all();
    }
}
