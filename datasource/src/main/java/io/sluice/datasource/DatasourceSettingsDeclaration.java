package io.sluice.datasource;

import io.sluice.common.settings.Scope;
import io.sluice.common.settings.Setting;
import io.sluice.common.settings.SettingType;
import io.sluice.common.settings.SettingsDeclaration;
import io.sluice.datasource.file.HadoopConfiguration;
import java.util.List;

/** Where tables may live ({@link FileAccessPolicy}) and how Hadoop file systems are configured. */
public final class DatasourceSettingsDeclaration implements SettingsDeclaration {
    public static final Setting<String> ALLOWED_ROOTS = Setting.node("sluice.fs.allowed-roots", SettingType.STRING, null,
            "directories or URIs under which a coordinator opens tables, comma-separated; unset: its working directory");
    public static final Setting<String> ALLOWED_SCHEMES = Setting.node("sluice.fs.allowed-schemes", SettingType.STRING,
            null, "file system schemes allowed besides file, hdfs and s3a (a Hadoop file system such as gs), "
                    + "comma-separated; never http or https");

    public static final Setting<String> DIRECT_WRITE_SCHEMES = Setting.node("sluice.fs.direct-write-schemes",
            SettingType.STRING, "s3a,s3,s3n,gs,abfs,abfss,wasb,wasbs,oss,cosn,obs", "file system schemes (object "
                    + "stores) whose writes commit without renaming: tasks write final-named files and a _SUCCESS "
                    + "manifest lists the committed ones (docs/architecture.md)");
    public static final Setting<String> HADOOP = Setting.family(HadoopConfiguration.PREFIX, Scope.NODE,
            "any Hadoop key K, in Hadoop's spelling, as sluice.hadoop.K (sluice.hadoop.fs.s3a.endpoint): applied over "
                    + "the core-site.xml and hdfs-site.xml of HADOOP_CONF_DIR on every node; SET in a session overlays "
                    + "a lower-case key for that session's statements (node-only: *.impl, fs.defaultFS, hadoop.security.*, "
                    + "credential providers, *.dir); values of keys naming a secret, password, token or key are never printed");

    @Override
    public List<Setting<?>> settings() {
        return List.of(ALLOWED_ROOTS, ALLOWED_SCHEMES, DIRECT_WRITE_SCHEMES, HADOOP);
    }
}
