package io.sluice.plan;

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
import io.sluice.plan.exec.Batch;
import io.sluice.plan.logical.LogicalPlan;
import io.sluice.plan.physical.ExecutionPlan;
import io.sluice.plan.source.FileFormats;
import io.sluice.plan.sql.SqlFrontEnd;
import io.sluice.plan.wire.PlanJson;
import java.net.URI;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering of the plan-layer modules (docs/architecture.md, "Module layout"), checked on the
 * compiled classes of each module rather than by grepping sources. Modules keep the
 * {@code io.sluice.plan.*} package names of the former single {@code plan/} module, and a few
 * packages are split over two modules, so a class's module is where its class file was loaded
 * from (each module's output directory or jar), not its package.
 *
 * <p>Maven's reactor already refuses module cycles and classes a module's classpath lacks; this
 * test adds what Maven cannot see: the allowed module arrows (Maven lets a module use everything
 * its dependencies depend on), which module alone may use Calcite, Parquet and Hadoop (they are
 * on every downstream classpath), and that no package cycle crosses a package boundary.
 */
class ArchitectureTest {
    /** The plan-layer modules, bottom up, each with the modules its classes may use. */
    enum Module {
        COMMON(SluiceException.class),
        KERNELS(Batch.class, COMMON),
        LOGICAL(LogicalPlan.class, KERNELS, COMMON),
        SQL(SqlFrontEnd.class, LOGICAL, KERNELS, COMMON),
        OPERATORS(ExecutionPlan.class, LOGICAL, KERNELS, COMMON),
        DATASOURCE(FileFormats.class, OPERATORS, LOGICAL, KERNELS, COMMON),
        PLAN(PlanJson.class, DATASOURCE, OPERATORS, LOGICAL, KERNELS, COMMON);

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

        String id() {
            return name().toLowerCase();
        }
    }

    /**
     * Packages of one module that refer to each other by nature, counted as one slice for the cycle
     * rule: subquery expressions hold logical plans, plans hold expressions, and statistics are
     * estimated from both.
     */
    private static final Set<String> LOGICAL_CORE = Set.of("expr", "logical", "stats");

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
        for (Module module : Module.values()) {
            noClasses().that(inModule(EnumSet.of(module)))
                    .should().dependOnClassesThat(inModule(EnumSet.complementOf(EnumSet.copyOf(module.mayUse()))))
                    .because(module.id() + " may use only " + module.mayUse())
                    .check(classes);
        }
    }

    @Test
    void onlyTheSqlModuleSeesCalcite() {
        onlyModuleSees(Module.SQL, "org.apache.calcite..").check(classes);
    }

    @Test
    void onlyTheDatasourceModuleSeesParquetAndHadoop() {
        onlyModuleSees(Module.DATASOURCE, "org.apache.parquet..").check(classes);
        onlyModuleSees(Module.DATASOURCE, "org.apache.hadoop..").check(classes);
    }

    @Test
    void noPackageCycles() {
        packageCycles(LOGICAL_CORE).check(classes);
    }

    /** The cycle rule can fail: without the logical core counted as one slice it finds that cycle. */
    @Test
    void cycleRuleFindsTheLogicalCoreCycle() {
        assertThatThrownBy(() -> packageCycles(Set.of()).check(classes))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("logical:expr")
                .hasMessageContaining("logical:logical");
    }

    private static ArchRule onlyModuleSees(Module module, String packages) {
        return noClasses().that(inModule(EnumSet.complementOf(EnumSet.of(module))))
                .should().dependOnClassesThat().resideInAPackage(packages)
                .because("only " + module.id() + " may see " + packages);
    }

    /**
     * No cycles between slices, a slice being one package within one module ({@code module:package},
     * since some packages are split over two modules), with {@code merged} packages of the logical
     * module counted as one.
     */
    private static ArchRule packageCycles(Set<String> merged) {
        return SlicesRuleDefinition.slices().assignedFrom(new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                Module module = MODULE_OF_CLASS.get(javaClass.getName());
                if (module == null) {
                    return SliceIdentifier.ignore();
                }
                String pkg = javaClass.getPackageName().replaceFirst("^io\\.sluice\\.plan\\.?", "");
                pkg = pkg.isEmpty() ? "(root)" : pkg;
                if (module == Module.LOGICAL && merged.contains(pkg)) {
                    pkg = String.join("+", merged.stream().sorted().toList());
                }
                return SliceIdentifier.of(module.id() + ":" + pkg);
            }

            @Override
            public String getDescription() {
                return "packages per module";
            }
        }).should().beFreeOfCycles();
    }

    private static DescribedPredicate<JavaClass> inModule(Set<Module> modules) {
        return DescribedPredicate.describe("in modules " + modules,
                c -> modules.contains(MODULE_OF_CLASS.get(c.getName())));
    }
}
