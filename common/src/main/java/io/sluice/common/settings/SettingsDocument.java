package io.sluice.common.settings;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * The settings tables of {@code docs/configuration.md}, rendered from a registry. The document's
 * prose is written by hand; only the part between {@link #BEGIN} and {@link #END} is generated, so
 * a name, default, bound or doc line is written once, in its declaration.
 */
public final class SettingsDocument {
    public static final String BEGIN = "<!-- BEGIN GENERATED: settings tables, from the SettingsDeclaration classes -->";
    public static final String END = "<!-- END GENERATED -->";

    private SettingsDocument() {
    }

    /** {@code document} with its generated part rendered anew from {@code registry}. */
    public static String update(String document, SettingsRegistry registry) {
        int begin = document.indexOf(BEGIN);
        int end = document.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalArgumentException("the document has no " + BEGIN + " ... " + END + " part");
        }
        return document.substring(0, begin + BEGIN.length()) + "\n" + render(registry) + document.substring(end);
    }

    /** A table of the session settings, then one of the node settings, each by name. */
    public static String render(SettingsRegistry registry) {
        requireNonNull(registry, "registry is null");
        StringBuilder out = new StringBuilder();
        table(out, "Session settings (node defaults; per script or session: `SET name = value`)",
                registry.all().stream().filter(s -> s.scope() == Scope.SESSION).toList());
        out.append('\n');
        table(out, "Node settings (config file, `SLUICE_*` variables, `--conf`, `-D`)",
                registry.all().stream().filter(s -> s.scope() != Scope.SESSION).toList());
        return out.toString();
    }

    private static void table(StringBuilder out, String title, List<Setting<?>> settings) {
        out.append("## ").append(title).append("\n\n");
        out.append("| name | type | default | allowed | meaning |\n");
        out.append("|---|---|---|---|---|\n");
        for (Setting<?> s : settings) {
            out.append("| `").append(s.name()).append(s.isFamily() ? "*" : "").append("` | ").append(s.type().description())
                    .append(" | ").append(s.defaultValue() == null ? "" : "`" + s.formattedDefault() + "`")
                    .append(" | ").append(s.bounds())
                    .append(" | ").append(s.doc().replace("|", "\\|")).append(" |\n");
        }
    }
}
