package io.sluice.worker;

import io.sluice.common.WireClasses;
import java.util.List;

/** The worker tests' own operators, allowed on the wire in their JVM only (test class path). */
public final class TestWireClasses implements WireClasses {
    @Override
    public List<Class<?>> classes() {
        return List.of(TaskRunnerMemoryTest.Rows.class);
    }
}
