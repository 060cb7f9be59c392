package io.sluice.api;

import io.sluice.common.settings.Setting;
import io.sluice.common.settings.SettingType;
import io.sluice.common.settings.SettingsDeclaration;
import java.util.List;

/** Where a job's session runs ({@link Session#create()}) and how a node finds its cluster secret ({@link AuthSecrets}). */
public final class ApiSettingsDeclaration implements SettingsDeclaration {
    public static final Setting<String> MASTER = Setting.node("sluice.master", SettingType.STRING, "local[2]",
            "where a job's session runs: `local[N]` for an embedded cluster of N workers, or `[https://]host:httpPort` "
                    + "of a coordinator (set by `sluice submit`)");
    public static final Setting<String> MASTER_TLS_FINGERPRINT = Setting.node("sluice.master.tls-fingerprint",
            SettingType.STRING, "", "the SHA-256 fingerprint of the HTTPS certificate a job's session accepts from "
                    + "`sluice.master` (set by `sluice submit --http-tls-fingerprint`); empty: not pinned");
    public static final Setting<String> MASTER_TLS_CA = Setting.node("sluice.master.tls-ca", SettingType.STRING, "",
            "a PEM file of the CA or server certificates a job's session trusts for `sluice.master` "
                    + "(set by `sluice submit --http-tls-ca`); empty: the JVM's default trust");
    public static final Setting<String> AUTH_SECRET_FILE = Setting.property("sluice.auth.secret-file", SettingType.STRING,
            null, "a file holding the cluster secret, read when `SLUICE_AUTH_SECRET` is unset (docs/security.md); "
                    + "`-D` only");
    public static final Setting<Boolean> AUTH_ENABLED = Setting.property("sluice.auth.enabled", SettingType.BOOLEAN, true,
            "false runs a standalone node without a cluster secret, as `--insecure` does; `-D` only, never from "
                    + "the config file, a variable or `--conf`");

    public static final Setting<Boolean> STARTUP_TRACE = Setting.property("sluice.debug.startup-trace", SettingType.BOOLEAN,
            false, "true prints when each phase of starting and stopping an embedded cluster (and `sluice sql` around it) "
                    + "ends, in ms since the JVM started, to stderr; `-D` only");

    @Override
    public List<Setting<?>> settings() {
        return List.of(MASTER, MASTER_TLS_FINGERPRINT, MASTER_TLS_CA, AUTH_SECRET_FILE, AUTH_ENABLED, STARTUP_TRACE);
    }
}
