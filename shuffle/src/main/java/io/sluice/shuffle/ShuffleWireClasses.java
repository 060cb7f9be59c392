package io.sluice.shuffle;

import io.sluice.common.WireClasses;
import java.util.List;

/** The shuffle operators that travel in stage plans (see {@link WireClasses}). */
public final class ShuffleWireClasses implements WireClasses {
    @Override
    public List<Class<?>> classes() {
        return List.of(ShuffleWriterExec.class, ShuffleReaderExec.class);
    }
}
