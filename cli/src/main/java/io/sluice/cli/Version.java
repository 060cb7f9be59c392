package io.sluice.cli;

import picocli.CommandLine.IVersionProvider;

/** The version from the jar manifest (Implementation-Version), or "dev" when run from classes. */
final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
        String version = Main.class.getPackage().getImplementationVersion();
        return new String[] {"sluice " + (version == null ? "dev" : version)};
    }
}
