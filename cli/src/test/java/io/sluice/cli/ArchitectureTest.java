package io.sluice.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import io.sluice.api.Session;
import io.sluice.cluster.SluiceNode;
import io.sluice.common.SluiceException;
import io.sluice.connect.ConnectServer;
import io.sluice.coordinator.QueryService;
import io.sluice.datasource.FileFormats;
import io.sluice.kernels.Batch;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.operators.ExecutionPlan;
import io.sluice.optimizer.LogicalOptimizer;
import io.sluice.physical.PhysicalPlanner;
import io.sluice.shuffle.ShuffleServer;
import io.sluice.sql.SqlFrontEnd;
import io.sluice.tpch.TpchData;
import io.sluice.wire.PlanJson;
import io.sluice.worker.Worker;
import java.net.URI;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering of docs/architecture.md, checked on the compiled classes of every module of the
 * runtime (the {@code cli} module sees them all). A class's module is where its class file was
 * loaded from (each module's output directory or jar), so the rules hold whatever a class's package
 * claims.
 *
 * <p>Maven's reactor already refuses module cycles and classes a module's classpath lacks; this
 * test adds what Maven cannot see: the allowed module arrows (Maven lets a module use everything its
 * dependencies depend on), which module alone may use Calcite, Parquet, Hadoop, Netty and Pekko
 * (they are on every downstream classpath), that every package is named for its module and lives in
 * one module only, and that no package cycle exists. Each rule is shown to fail on a deliberate
 * violation, so none of them passes by being unable to fail.
 */
class ArchitectureTest {
    /** The modules, bottom up, each with the modules its classes may use directly. */
    enum Module {
        COMMON(SluiceException.class),
        KERNELS(Batch.class, COMMON),
        LOGICAL(LogicalPlan.class, COMMON),
        SQL(SqlFrontEnd.class, LOGICAL, COMMON),
        OPERATORS(ExecutionPlan.class, LOGICAL, KERNELS, COMMON),
        DATASOURCE(FileFormats.class, OPERATORS, LOGICAL, KERNELS, COMMON),
        OPTIMIZER(LogicalOptimizer.class, LOGICAL, COMMON),
        PHYSICAL(PhysicalPlanner.class, DATASOURCE, OPERATORS, LOGICAL, KERNELS, COMMON),
        SHUFFLE(ShuffleServer.class, OPERATORS, LOGICAL, KERNELS, COMMON),
        WIRE(PlanJson.class, DATASOURCE, OPERATORS, LOGICAL, KERNELS, COMMON),
        CLUSTER(SluiceNode.class, WIRE, SHUFFLE, DATASOURCE, OPERATORS, LOGICAL, KERNELS, COMMON),
        WORKER(Worker.class, CLUSTER, WIRE, SHUFFLE, DATASOURCE, OPERATORS, LOGICAL, KERNELS, COMMON),
        COORDINATOR(QueryService.class, CLUSTER, WIRE, SHUFFLE, PHYSICAL, OPTIMIZER, SQL, DATASOURCE, OPERATORS,
                LOGICAL, KERNELS, COMMON),
        TPCH(TpchData.class),
        API(Session.class, COORDINATOR, WORKER, CLUSTER, WIRE, SHUFFLE, PHYSICAL, OPTIMIZER, SQL, DATASOURCE,
                OPERATORS, LOGICAL, KERNELS, COMMON, TPCH),
        CONNECT(ConnectServer.class, API, COORDINATOR, WORKER, CLUSTER, WIRE, SHUFFLE, PHYSICAL, OPTIMIZER, SQL, DATASOURCE,
                OPERATORS, LOGICAL, KERNELS, COMMON),
        CLI(Main.class, CONNECT, API, COORDINATOR, WORKER, CLUSTER, WIRE, SHUFFLE, PHYSICAL, OPTIMIZER, SQL, DATASOURCE,
                OPERATORS, LOGICAL, KERNELS, COMMON, TPCH);

        final Class<?> anchor;
        private final List<Module> below;

        Module(Class<?> anchor, Module... below) {
            this.anchor = anchor;
            this.below = List.of(below);
        }

        /** This module and the ones below it that it may use. */
        Set<Module> mayUse() {
            Set<Module> modules = EnumSet.of(this);
            modules.addAll(below);
            return modules;
        }

        /** The package every class of this module lives in or under. */
        String rootPackage() {
            return "io.sluice." + name().toLowerCase();
        }
    }

    private static final Map<String, Module> MODULE_OF_CLASS = new HashMap<>();
    private static JavaClasses classes;

    @BeforeAll
    static void importModules() throws Exception {
        // The rules need only the names of third-party classes: importing them would take a minute.
        ArchConfiguration.get().setResolveMissingDependenciesFromClassPath(false);
        Map<String, Module> moduleOfLocation = new HashMap<>();
        List<Location> locations = new ArrayList<>();
        for (Module module : Module.values()) {
            URI location = module.anchor.getProtectionDomain().getCodeSource().getLocation().toURI();
            moduleOfLocation.put(location.getRawPath(), module);
            locations.add(Location.of(location));
        }
        classes = new ClassFileImporter().importLocations(locations);
        for (JavaClass c : classes) {
            String source = c.getSource().orElseThrow().getUri().toString();
            List<Module> in = moduleOfLocation.entrySet().stream()
                    .filter(e -> source.contains(e.getKey())).map(Map.Entry::getValue).toList();
            assertThat(in).as("modules of %s (%s)", c.getName(), source).hasSize(1);
            MODULE_OF_CLASS.put(c.getName(), in.get(0));
        }
        for (Module module : Module.values()) {
            assertThat(MODULE_OF_CLASS.get(module.anchor.getName())).as("module of %s", module.anchor).isEqualTo(module);
        }
    }

    @AfterAll
    static void resetConfiguration() {
        ArchConfiguration.get().reset();
    }

    @Test
    void eachModuleUsesOnlyTheModulesBelowIt() {
        layering(MODULE_OF_CLASS::get).forEach(rule -> rule.check(classes));
    }

    /** A kernel that reached up into the coordinator (a back-edge) is refused by the layering rule. */
    @Test
    void layeringRuleFindsABackEdge() {
        JavaClasses withProbe = new ClassFileImporter().importClasses(BackEdgeProbe.class);
        Function<String, Module> probeInKernels = name -> name.equals(BackEdgeProbe.class.getName())
                ? Module.KERNELS : MODULE_OF_CLASS.get(name);
        assertThatThrownBy(() -> layering(probeInKernels).forEach(rule -> rule.check(withProbe)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("kernels may use only")
                .hasMessageContaining(QueryService.class.getName());
    }

    @Test
    void onlyTheSqlModuleSeesCalcite() {
        onlyModulesSee(EnumSet.of(Module.SQL), "org.apache.calcite..").check(classes);
    }

    @Test
    void onlyTheDatasourceModuleSeesParquetAndHadoop() {
        // tpch writes its benchmark tables itself; no engine module depends on it.
        onlyModulesSee(EnumSet.of(Module.DATASOURCE, Module.TPCH), "org.apache.parquet..").check(classes);
        onlyModulesSee(EnumSet.of(Module.DATASOURCE, Module.TPCH), "org.apache.hadoop..").check(classes);
    }

    @Test
    void onlyTheShuffleAndConnectModulesSeeNetty() {
        // connect serves gRPC over grpc-netty and watches its accepted channels (UnprovenTransports)
        onlyModulesSee(EnumSet.of(Module.SHUFFLE, Module.CONNECT), "io.netty..").check(classes);
    }

    @Test
    void onlyTheConnectModuleSeesGrpcAndProtobuf() {
        onlyModulesSee(EnumSet.of(Module.CONNECT), "io.grpc..").check(classes);
        onlyModulesSee(EnumSet.of(Module.CONNECT), "com.google.protobuf..").check(classes);
    }

    @Test
    void onlyNodeModulesSeePekko() {
        onlyModulesSee(EnumSet.of(Module.CLUSTER, Module.COORDINATOR, Module.WORKER), "org.apache.pekko..")
                .check(classes);
    }

    @Test
    void everyPackageIsNamedForItsModuleAndLivesInOneModule() {
        assertThat(packageProblems(MODULE_OF_CLASS)).isEmpty();
    }

    /** A package split over two modules, and a class outside its module's package, are both found. */
    @Test
    void packageRuleFindsASplitPackage() {
        Map<String, Module> split = new HashMap<>(MODULE_OF_CLASS);
        split.put(QueryService.class.getName(), Module.WORKER);
        assertThat(packageProblems(split)).anyMatch(p -> p.contains("io.sluice.coordinator is split over"))
                .anyMatch(p -> p.contains(QueryService.class.getName() + " is in worker"));
    }

    @Test
    void noPackageCycles() {
        packageCycles().check(classes);
    }

    /**
     * The cycle rule finds a cycle: the two probes, counted as a class of the kernels and one of the
     * coordinator, refer to each other.
     */
    @Test
    void cycleRuleFindsACycle() {
        JavaClasses probes = new ClassFileImporter().importClasses(CycleProbe.class, BackEdgeProbe.class);
        Map<String, String> packageOfProbe = Map.of(BackEdgeProbe.class.getName(), "io.sluice.kernels",
                CycleProbe.class.getName(), "io.sluice.coordinator");
        assertThatThrownBy(() -> packageCycles(c -> packageOfProbe.get(c.getName())).check(probes))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Cycle detected")
                .hasMessageContaining("io.sluice.kernels")
                .hasMessageContaining("io.sluice.coordinator");
    }

    /**
     * Classes that live in a library's package to reach one of its package-private members, each in
     * the one module that uses it: parquet's {@code BytesInput} can only be extended from its own
     * package ({@code writeInto} is package-private), and the Snappy pages extend it.
     */
    private static final Map<String, Module> LIBRARY_SHIMS = Map.of(
            "org.apache.parquet.bytes.OpenBytesInput", Module.DATASOURCE);

    /** Each package's module, or a line per problem: a package in two modules, a class outside its module's root. */
    private static List<String> packageProblems(Map<String, Module> moduleOfClass) {
        Map<String, Set<Module>> modulesOfPackage = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        moduleOfClass.forEach((name, module) -> {
            String pkg = name.substring(0, name.lastIndexOf('.'));
            modulesOfPackage.computeIfAbsent(pkg, p -> new TreeSet<>()).add(module);
            boolean shim = module.equals(LIBRARY_SHIMS.get(name));
            if (!shim && !pkg.equals(module.rootPackage()) && !pkg.startsWith(module.rootPackage() + ".")) {
                problems.add(name + " is in " + module.name().toLowerCase() + ", whose packages are "
                        + module.rootPackage() + "[.*]");
            }
        });
        modulesOfPackage.forEach((pkg, modules) -> {
            if (modules.size() > 1) {
                problems.add(pkg + " is split over " + modules);
            }
        });
        return problems;
    }

    private static List<ArchRule> layering(Function<String, Module> moduleOf) {
        List<ArchRule> rules = new ArrayList<>();
        for (Module module : Module.values()) {
            Set<Module> forbidden = EnumSet.complementOf(EnumSet.copyOf(module.mayUse()));
            rules.add(noClasses().that(inModule(moduleOf, EnumSet.of(module)))
                    .should().dependOnClassesThat(inModule(moduleOf, forbidden))
                    .because(module.name().toLowerCase() + " may use only " + module.mayUse())
                    .allowEmptyShould(true));
        }
        return rules;
    }

    private static ArchRule onlyModulesSee(Set<Module> modules, String packages) {
        return noClasses().that(inModule(MODULE_OF_CLASS::get, EnumSet.complementOf(EnumSet.copyOf(modules))))
                .should().dependOnClassesThat().resideInAPackage(packages)
                .because("only " + modules + " may see " + packages);
    }

    /** No cycles between the packages of the engine's classes. */
    private static ArchRule packageCycles() {
        return packageCycles(c -> MODULE_OF_CLASS.containsKey(c.getName()) ? c.getPackageName() : null);
    }

    /** No cycles between slices, a slice being the package {@code packageOf} gives (null: not checked). */
    private static ArchRule packageCycles(Function<JavaClass, String> packageOf) {
        return SlicesRuleDefinition.slices().assignedFrom(new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                String pkg = packageOf.apply(javaClass);
                return pkg == null ? SliceIdentifier.ignore() : SliceIdentifier.of(pkg);
            }

            @Override
            public String getDescription() {
                return "packages";
            }
        }).should().beFreeOfCycles();
    }

    private static DescribedPredicate<JavaClass> inModule(Function<String, Module> moduleOf, Set<Module> modules) {
        return DescribedPredicate.describe("in modules " + modules, c -> modules.contains(moduleOf.apply(c.getName())));
    }

    /** Stands for a kernel class that imports the coordinator: the back-edge the layering rule must refuse. */
    static final class BackEdgeProbe {
        static String reachUp(QueryService service) {
            return service.toString() + CycleProbe.NAME;
        }
    }

    /** The other half of a two-class cycle with {@link BackEdgeProbe}. */
    static final class CycleProbe {
        static final String NAME = String.valueOf("probe");

        static String back() {
            return BackEdgeProbe.reachUp(null);
        }
    }
}
