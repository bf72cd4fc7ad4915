package lab.plan;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class JvmPlanTests {

	static final List<String> VARIANTS = List.of("app-webflux", "app-webflux-loom", "app-jetty-loom", "app-tomcat-loom", "app-tomcat-platform");

	@Test
	void theFreshJvmsGoWhereTheyNarrowTheWidestRatioMost() {
		JvmPlan plan = JvmPlan.of(VARIANTS, "app-webflux", 2, 4, VariancePrior.SHIPPED);
		// The even plan: two JVMs each, the quiet platform pool one (none between JVMs): 4 fresh JVMs.
		assertThat(plan.even()).containsEntry("app-webflux", 2).containsEntry("app-webflux-loom", 2).containsEntry("app-jetty-loom", 2)
			.containsEntry("app-tomcat-loom", 2).containsEntry("app-tomcat-platform", 1);
		// By hand, a ratio's variance its two entries' each jvmSd²/J + runSd², jvmSd² = 2 × (crossingSd² - runSd²). All at
		// one JVM, WebFlux + VT's ratio is the widest (0.0536 + 0.0038 + 0.0103 + 0.0031 = 0.0708): a second JVM of its own
		// narrows it by 0.0268, the baseline's by 0.0051; then WebFlux + VT's again, by a hair (0.0441 against Jetty's
		// 0.0440; 0.0089 against 0.0051), its third and last (one for the bracket, one per two refining rounds); then Jetty's
		// (0.0440: 0.0147 against 0.0051); then WebFlux + VT's ratio is the widest again (0.0351) and only the baseline can
		// take one.
		assertThat(plan.jvms()).containsEntry("app-webflux-loom", 3).containsEntry("app-jetty-loom", 2).containsEntry("app-webflux", 2)
			.containsEntry("app-tomcat-loom", 1).containsEntry("app-tomcat-platform", 1);
		assertThat(plan.freshJvms()).isEqualTo(4);
		// √(0.0536/3 + 0.0038 + 0.0103/2 + 0.0031) = 0.1731; the even plan's √(0.0536/2 + 0.0038 + 0.0103/2 + 0.0031) = 0.1972.
		assertThat(plan.widestSd()).isCloseTo(0.1731, within(0.0005));
		assertThat(plan.evenWidestSd()).isCloseTo(0.1972, within(0.0005));
		assertThat(plan.text()).startsWith("JVMs per entry, where the lab's prior says a fresh one narrows the widest ratio most: app-webflux 2 (the baseline), "
				+ "app-webflux-loom 3, app-jetty-loom 2, app-tomcat-loom 1, app-tomcat-platform 1").contains("±17.3%, ±19.7% with 2 each");
	}

	@Test
	void equalPriorsNoJvmLevelOrOneJvmGiveTheEvenPlan() {
		// A tune's arms of one service: every arm's prior alike, no baseline: each gets its second JVM in turn.
		List<String> arms = List.of("svc.a", "svc.b", "svc.c");
		JvmPlan arms2 = JvmPlan.of(arms, null, 2, 4, VariancePrior.SHIPPED);
		assertThat(arms2.jvms()).containsExactlyEntriesOf(arms2.even());
		assertThat(arms2.uneven()).isFalse();
		assertThat(arms2.text()).isEqualTo("JVMs per entry: svc.a 2, svc.b 2, svc.c 2");
		// No JVM level (a negative control): the prior cannot say where a JVM pays.
		assertThat(JvmPlan.of(VARIANTS, "app-webflux", 2, 4, VariancePrior.SHIPPED.withoutJvmTerm()).uneven()).isFalse();
		// One JVM each: nothing to share out.
		assertThat(JvmPlan.of(VARIANTS, "app-webflux", 1, 4, VariancePrior.SHIPPED).jvms().values()).containsOnly(1);
	}

	@Test
	void anAaTwinsRatioHasNoRunTermAndNoEntryPassesItsMost() {
		List<String> entries = new java.util.ArrayList<>(VARIANTS);
		entries.add(Arm.twin("app-webflux"));
		JvmPlan plan = JvmPlan.of(entries, "app-webflux", 2, 4, VariancePrior.SHIPPED);
		assertThat(plan.freshJvms()).isEqualTo(5);
		assertThat(plan.jvms().values()).allSatisfy(j -> assertThat(j).isBetween(1, 3));
		assertThat(plan.of("app-tomcat-platform")).isEqualTo(1);
		// The twin checks the harness like for like: it keeps the even plan's two, and the other four go as without it.
		assertThat(plan.of("app-webflux.aa")).isEqualTo(2);
		JvmPlan without = JvmPlan.of(VARIANTS, "app-webflux", 2, 4, VariancePrior.SHIPPED);
		VARIANTS.forEach(v -> assertThat(plan.of(v)).as(v).isEqualTo(without.of(v)));
		// Two refining rounds: one for the bracket and one more at most, however wide.
		assertThat(JvmPlan.of(VARIANTS, "app-webflux", 2, 2, VariancePrior.SHIPPED).jvms().values()).allSatisfy(j -> assertThat(j).isBetween(1, 2));
	}

}
