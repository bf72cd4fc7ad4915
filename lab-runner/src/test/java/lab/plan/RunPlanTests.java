package lab.plan;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The plan's time estimate (what the progress line's "time left" and the dry run print) and its JDK axis. */
class RunPlanTests {

	private static final Host HOST = new Host(2, 20_000, 20_000, "32768 60999", 4096);

	private static RunPlan plan(Integer repeat) {
		Scenario scenario = new Overrides(List.of("app-webflux", "app-tomcat-loom"), List.of(20, 40), null, 3, 3, null, repeat, null, null, null, null)
			.applyTo(Scenario.load("smoke"));
		return RunPlan.of(scenario, Path.of(System.getProperty("lab.root", "..")), Path.of("out"), Path.of(System.getProperty("java.home")), List.of(), HOST);
	}

	@Test
	void everyRepeatStartsItsServicesAfresh() {
		RunPlan once = plan(1);
		RunPlan thrice = plan(3);
		// smoke with --warmup-seconds 3: a service start 15 + warm-up 3 + 6 = 24 s, a level ramp 1 + hold 3 + drain 0 + 6 = 10 s.
		assertThat(once.serviceStartSeconds()).isEqualTo(24);
		assertThat(once.levelSeconds()).isEqualTo(10);
		// 2 variants x (24 + 2 levels x 10) + 10 = 98 s; three repeats start 6 services: 6 x 44 + 10 = 274 s.
		assertThat(once.estimatedSeconds()).isEqualTo(98);
		assertThat(thrice.serviceRuns()).isEqualTo(6);
		assertThat(thrice.estimatedSeconds()).isEqualTo(274);
	}

	@Test
	void aCapacitySearchWithABudgetIsEstimatedWithinItAndSaysSo() {
		RunPlan plan = RunPlan.of(Scenario.load("capacity"), Path.of(System.getProperty("lab.root", "..")), Path.of("out"),
				Path.of(System.getProperty("java.home")), List.of(), HOST);
		assertThat(plan.scenario().searchMinutes()).isEqualTo(28.0);
		// One arm: its 28-minute budget, a minute to stop and summarise, and the run's 10 s.
		assertThat(plan.estimatedSeconds()).isLessThanOrEqualTo(10 + 28 * 60 + 60);
		assertThat(plan.describe()).contains("no refining round started that the search's budget of 28 minutes has no room for");
		// A tune's steps share its whole budget, however few probes its arms' count would suggest: the db scenario's 80 minutes.
		RunPlan db = RunPlan.of(Scenario.load("db"), Path.of(System.getProperty("lab.root", "..")), Path.of("out"),
				Path.of(System.getProperty("java.home")), List.of(), HOST);
		assertThat(db.estimatedSeconds()).isEqualTo(10 + 80 * 60 + 60);
	}

	@Test
	void aVarianceStudyIsPlannedAsItsBatchesOfFreshJvmsAndTheirProbes() {
		RunPlan plan = RunPlan.of(Scenario.load("variance"), Path.of(System.getProperty("lab.root", "..")), Path.of("out"),
				Path.of(System.getProperty("java.home")), List.of(), HOST);
		// 2 variants × 2 arms × 6 JVMs: 24 starts of 15 + 60 + 6 s, each probed twice at 5 + 15 + 0 + 6 + 16 s.
		assertThat(plan.serviceRuns()).isEqualTo(24);
		assertThat(plan.estimatedSeconds()).isEqualTo(10 + 24 * (81 + 2 * 42));
		assertThat(plan.describe()).contains("variance study: 4 entries (2 variants x 2 arms: default, heap-fixed), 6 batches; in each, every entry on a "
				+ "fresh JVM, probed 2 times at its variant's last capacity crossing on this host (else the one the lab ships), in a fresh random order "
				+ "each round: 24 starts and warm-ups, 48 probes")
			.contains("warm-up 60 s at 1000 users (or 80% of where a variant's knee is expected, if lower)")
			.doesNotContain("app-webflux-loom: ");
		// The history arm: 1 variant × (default, default after 2×) × 6 JVMs, and each history JVM's probe at twice the load.
		RunPlan history = RunPlan.of(Scenario.load("variance-history"), Path.of(System.getProperty("lab.root", "..")), Path.of("out"),
				Path.of(System.getProperty("java.home")), List.of(), HOST);
		assertThat(history.serviceRuns()).isEqualTo(12);
		assertThat(history.estimatedSeconds()).isEqualTo(10 + 12 * (81 + 2 * 42) + 6 * 42);
		assertThat(history.describe()).contains("variance study: 2 entries (1 variants x 2 arms: default, default after 2.0 x its load), 6 batches")
			.contains("12 starts and warm-ups, 24 probes and 6 history probes (each history arm's JVM once at 2.0 x its load first)");
		// The hold arm: its 12 probes each 30 s longer.
		RunPlan hold = RunPlan.of(Scenario.load("variance-hold"), Path.of(System.getProperty("lab.root", "..")), Path.of("out"),
				Path.of(System.getProperty("java.home")), List.of(), HOST);
		assertThat(hold.serviceRuns()).isEqualTo(12);
		assertThat(hold.estimatedSeconds()).isEqualTo(10 + 12 * (81 + 2 * 42) + 6 * 2 * 30);
		assertThat(hold.describe()).contains("variance study: 2 entries (1 variants x 2 arms: default, default held 45 s), 6 batches")
			.contains("12 starts and warm-ups, 24 probes\n");
		assertThat(hold.withHold(45).scenario().holdSeconds()).isEqualTo(45);
		assertThat(hold.withHold(45).scenario().holdArmSeconds()).isEqualTo(45);
	}

	@TempDir
	Path jdks;

	/** A JDK home as the plan checks one: an executable bin/java and a release file naming its version. */
	private Jdk fakeJdk(String spec, String version) throws IOException {
		Path home = Files.createDirectories(this.jdks.resolve("jdk-" + version));
		Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"Eclipse Adoptium\"\nJAVA_VERSION=\"" + version + "\"\n");
		Path java = Files.createDirectories(home.resolve("bin")).resolve("java");
		Files.writeString(java, "#!/bin/sh\n");
		java.toFile().setExecutable(true);
		return Jdk.at(spec, home);
	}

	@Test
	void everyVariantRunsOnEachJdkUnderEachTuningLabelledByBoth() throws IOException {
		Jdk jdk21 = fakeJdk("21", "21.0.8");
		Jdk jdk25 = fakeJdk("25", "25.0.1");
		Scenario scenario = new Overrides(List.of("app-webflux"), List.of(20), null, 3, 3, null, null, List.of("default", "tuned"), null,
				List.of("21", "25"), null).applyTo(Scenario.load("smoke"));
		RunPlan plan = RunPlan.of(scenario, Path.of(System.getProperty("lab.root", "..")), Path.of("out"), Path.of(System.getProperty("java.home")),
				List.of(), HOST).withJdks(List.of(jdk21, jdk25));
		// Tuning-major, JDK-minor: default on 21 and 25, then tuned on 21 and 25.
		assertThat(plan.arms().stream().map(arm -> arm.label("app-webflux")))
			.containsExactly("app-webflux.jdk21", "app-webflux.jdk25", "app-webflux.tuned-jdk21", "app-webflux.tuned-jdk25");
		assertThat(plan.arms().get(2).jdk().home()).isEqualTo(jdk21.home());
		// 1 variant x 2 tunings x 2 JDKs = 4 service starts: 4 x (24 + 10) + 10 = 146 s.
		assertThat(plan.serviceRuns()).isEqualTo(4);
		assertThat(plan.estimatedSeconds()).isEqualTo(146);
		assertThat(plan.describe()).contains("services on JDK 21 (" + jdk21.home() + "), JDK 25 (" + jdk25.home() + ")");
		// One JDK: the rows keep their names of old.
		assertThat(plan.withJdks(List.of(jdk21)).arms().stream().map(arm -> arm.label("app-webflux")))
			.containsExactly("app-webflux", "app-webflux.tuned");
	}

	@Test
	void everyVariantRunsUnderEachWorkLabelledByIt() {
		Scenario scenario = new Overrides(List.of("app-webflux", "app-tomcat-loom"), List.of(20), null, 3, 3, null, null, List.of("default", "tuned"),
				null, null, null, List.of(0, 40), 4096, null).applyTo(Scenario.load("smoke"));
		RunPlan plan = RunPlan.of(scenario, Path.of(System.getProperty("lab.root", "..")), Path.of("out"), Path.of(System.getProperty("java.home")),
				List.of(), HOST);
		assertThat(plan.arms().stream().map(arm -> arm.label("app-webflux")))
			.containsExactly("app-webflux.work0", "app-webflux.work40", "app-webflux.tuned-work0", "app-webflux.tuned-work40");
		assertThat(plan.arms().get(1).work()).isEqualTo(new Work(40, 4096));
		// 2 variants x 2 tunings x 2 works = 8 service starts.
		assertThat(plan.serviceRuns()).isEqualTo(8);
		assertThat(plan.describe()).contains("each request: work0 = pure waiting, 4,096-byte answers; work40 = 40 serialise-and-hash rounds per request, "
				+ "4,096-byte answers");
		assertThat(Arm.withoutWork("app-webflux.tuned-work40")).isEqualTo("app-webflux.tuned");
		assertThat(Arm.withoutWork("app-webflux.work40")).isEqualTo("app-webflux");
		assertThat(Variants.LAB.modelOf("app-webflux.tuned-work40")).endsWith("; tuning tuned; work 40");
		// One work: the rows keep their names of old.
		Scenario one = new Overrides(List.of("app-webflux"), List.of(20), null, 3, 3, null, null, null, null, null, null, List.of(10), null, null)
			.applyTo(Scenario.load("smoke"));
		RunPlan single = RunPlan.of(one, Path.of(System.getProperty("lab.root", "..")), Path.of("out"), Path.of(System.getProperty("java.home")),
				List.of(), HOST);
		assertThat(single.arms().stream().map(arm -> arm.label("app-webflux"))).containsExactly("app-webflux");
		assertThat(single.arms().get(0).work()).isEqualTo(new Work(10, 0));
	}

	@Test
	void theAotAxisLabelsItsRowsAndNeedsJdk25() throws IOException {
		Scenario scenario = new Overrides(List.of("app-webflux"), List.of(20), null, 3, 3, null, null, null, null, null, null, null, null,
				List.of("none", "trained")).applyTo(Scenario.load("smoke"));
		Path root = Path.of(System.getProperty("lab.root", ".."));
		RunPlan plan = RunPlan.of(scenario, root, Path.of("out"), fakeJdk("25", "25.0.1").home(), List.of(), HOST);
		assertThat(plan.arms().stream().map(arm -> arm.label("app-webflux"))).containsExactly("app-webflux.aot-none", "app-webflux.aot-trained");
		assertThat(plan.serviceRuns()).isEqualTo(2);
		// Two service runs, and the trained cache's training: its aotTrainingSeconds and 25 s (measured 18-24 s more).
		assertThat(plan.estimatedSeconds()).isEqualTo(10 + 2 * (plan.serviceStartSeconds() + plan.levelSeconds()) + scenario.aotTrainingSeconds() + 25);
		assertThat(Variants.LAB.modelOf("app-webflux.aot-trained")).endsWith("; AOT cache trained under the lab's load");
		// The A/A twin: the baseline entered again under a second name, its module the same.
		assertThat(Arm.twin("app-webflux")).isEqualTo("app-webflux.aa");
		assertThat(Arm.twin("app-webflux.tuned-work100")).isEqualTo("app-webflux.tuned-work100-aa");
		assertThat(Variant.moduleOf(Arm.twin("app-webflux.tuned"))).isEqualTo("app-webflux");
		assertThat(Variants.LAB.modelOf("app-webflux.aa")).isEqualTo(Variants.LAB.modelOf("app-webflux") + "; A/A twin (the same variant entered twice)");
		assertThat(Variants.LAB.modelOf("app-webflux.tuned-work100-aa")).endsWith("; tuning tuned; work 100; A/A twin (the same variant entered twice)");
		assertThat(Variants.LAB.modelOf("app-webflux.tuned-jdk25-work10-aot-none")).endsWith("; tuning tuned; JDK 25; work 10; no AOT cache (extracted jar)");
		assertThatThrownBy(() -> RunPlan.of(scenario, root, Path.of("out"), fakeJdk("21", "21.0.8").home(), List.of(), HOST))
			.isInstanceOf(PlanException.class).hasMessageContaining("--aot needs the services on JDK 25 or newer");
	}

	@Test
	void aJdkAxisThePlanCannotRunIsOneLineNamingTheFix() throws IOException {
		RunPlan plan = plan(1);
		Jdk jdk21 = fakeJdk("21", "21.0.8");
		assertThatThrownBy(() -> plan.withJdks(List.of(jdk21, Jdk.at(jdk21.home().toString(), jdk21.home())))).isInstanceOf(PlanException.class)
			.hasMessageContaining("names one feature version twice");
		assertThatThrownBy(() -> plan.withJdks(List.of(jdk21, fakeJdk("17", "17.0.9")))).isInstanceOf(PlanException.class)
			.hasMessageContaining("is JDK 17; the services need 21 or newer");
		assertThatThrownBy(() -> plan.withJdks(List.of(jdk21, new Jdk("/nowhere", Path.of("/nowhere"), 0)))).isInstanceOf(PlanException.class)
			.hasMessageContaining("/nowhere has no bin/java");
	}

}
