package io.sluice.datasource.file;

import java.util.List;

/**
 * Decides whether the files a listing found may be opened, before any of them is: the file access
 * policy of the coordinator planning a query, which resolves symbolic links met inside a table
 * directory against its roots ({@link SourceFiles#guarded}).
 */
@FunctionalInterface
public interface FileGuard {
    /** Refuses, with an exception naming the location, the file and the rule, a file not to be opened. */
    void checkFiles(String location, List<SourceFile> files);
}
