package lab.plan;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The plan's time estimate: what the progress line's "time left" and the dry run print. */
class RunPlanTests {

	private static final Host HOST = new Host(2, 20_000, 20_000, "32768 60999", 4096);

	private static RunPlan plan(Integer repeat) {
		Scenario scenario = new Overrides(List.of("app-webflux", "app-tomcat-loom"), List.of(20, 40), null, 3, 3, null, repeat, null, null)
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

}
