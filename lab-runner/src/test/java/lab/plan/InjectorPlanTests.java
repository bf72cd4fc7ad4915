package lab.plan;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InjectorPlanTests {

	@Test
	void closedUsersAreBoundedByTheDelayAndTheSearchMaximumCounts() {
		// The seed: 10,000 users on 500 ms ask at most 20,000 requests a second; a c5.xlarge carries 4 x 700 / 0.10 = 28,000.
		InjectorPlan seed = InjectorPlan.of(Scenario.load("seed"), "c5.xlarge", null, null);
		assertThat(seed.topLoad()).isEqualTo(10_000);
		assertThat(seed.requestsPerSecond()).isEqualTo(20_000);
		assertThat(seed.perInjector()).isEqualTo(28_000, org.assertj.core.data.Offset.offset(1e-6));
		assertThat(seed.needed()).isEqualTo(1);
		assertThat(seed.describe(1)).singleElement().asString()
			.isEqualTo("injectors: scenario seed's top load, 10,000 users on a 500 ms downstream, asks up to 20,000 requests a second; "
					+ "at 0.10 ms of injector CPU each, one c5.xlarge (4 vCPUs) carries about 28,000 at 70% busy: 1 injector(s) needed, 1 planned");
		// The capacity search may go to its searchMax (16,000 users): 32,000 requests a second, two of them.
		InjectorPlan capacity = InjectorPlan.of(Scenario.load("capacity"), "c5.xlarge", null, null);
		assertThat(capacity.topLoad()).isEqualTo(16_000);
		assertThat(capacity.needed()).isEqualTo(2);
		List<String> warned = capacity.describe(1);
		assertThat(warned).hasSize(2);
		assertThat(warned.get(1)).startsWith("WARNING: 1 injector(s) are fewer than the 2 this load needs: set injector_count = 2");
		assertThat(capacity.describe(2)).hasSize(1);
	}

	@Test
	void theTypesVcpusAndTheMeasuredCostSetTheCount() {
		// One vCPU carries 7,000 requests a second: the seed's 20,000 need three.
		assertThat(InjectorPlan.of(Scenario.load("seed"), "t2.micro", null, null).needed()).isEqualTo(3);
		// A costlier injector (a run of yours measured 0.25 ms) needs more of them.
		assertThat(InjectorPlan.of(Scenario.load("seed"), "c5.xlarge", null, 0.25).needed()).isEqualTo(2);
		assertThat(InjectorPlan.of(Scenario.load("seed"), "z9.metal", 96, null).needed()).isEqualTo(1);
		assertThatThrownBy(() -> InjectorPlan.of(Scenario.load("seed"), "z9.metal", null, null)).isInstanceOf(PlanException.class)
			.hasMessageStartingWith("--instance-type z9.metal: its vCPUs are not in the lab's table").hasMessageEndingWith("give them with --vcpus N");
	}

	@Test
	void anOpenScenarioAsksItsRateAndNoDelayLeavesTheRateUnbounded() {
		Scenario open = Scenario.load("capacity-open");
		InjectorPlan plan = InjectorPlan.of(open, "c5.large", null, null);
		assertThat(plan.requestsPerSecond()).isEqualTo(plan.topLoad());
		assertThat(plan.describe(1).get(0)).contains("arrivals a second");
		Scenario noDelay = new Overrides(null, null, 0L, null, null, null, null, null, null, null, null).applyTo(Scenario.load("smoke"));
		InjectorPlan unbounded = InjectorPlan.of(noDelay, "c5.large", null, null);
		assertThat(unbounded.requestsPerSecond()).isNaN();
		assertThat(unbounded.describe(1)).singleElement().asString().contains("has no delay to bound its rate");
	}

}
