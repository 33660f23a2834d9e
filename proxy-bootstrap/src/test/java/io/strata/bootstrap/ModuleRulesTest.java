package io.strata.bootstrap;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The layering every change keeps, checked on the compiled classes: bootstrap, then the MySQL frontend, then the
 * kernel and backend, then the rule engine, never back; no cycle between any two packages; the MySQL adapter free of
 * JDBC, so that a second host needs nothing of it and it nothing of JDBC.
 */
class ModuleRulesTest {

    private static final JavaClasses STRATA = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.strata");

    @Test
    void noPackageDependsOnAnotherThatDependsOnIt() {
        slices().matching("io.strata.(**)").should().beFreeOfCycles().check(STRATA);
    }

    @Test
    void theMySqlFrontendUsesNoJdbc() {
        noClasses().that().resideInAPackage("io.strata.frontend..")
                .should().dependOnClassesThat().resideInAnyPackage("java.sql..", "javax.sql..", "com.zaxxer..",
                        "io.strata.backend.jdbc..")
                .check(STRATA);
    }

    @Test
    void theKernelBackendAndRulesKnowNothingOfTheFrontendOrTheBootstrap() {
        noClasses().that().resideInAnyPackage("io.strata.kernel..", "io.strata.backend..", "io.strata.protocol..",
                        "io.strata.rule..", "io.strata.config..")
                .should().dependOnClassesThat().resideInAnyPackage("io.strata.frontend..", "io.strata.bootstrap..")
                .check(STRATA);
    }

    @Test
    void theRuleEngineKnowsNothingOfExecution() {
        noClasses().that().resideInAnyPackage("io.strata.rule..", "io.strata.config..")
                .should().dependOnClassesThat().resideInAnyPackage("io.strata.kernel..", "io.strata.backend..",
                        "io.strata.protocol..", "io.netty..")
                .check(STRATA);
    }
}
