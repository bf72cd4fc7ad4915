package lab.plan;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class VariancePriorTests {

	@Test
	void theShippedJvmLevelIsTwiceTheSpreadBetweenRunsLessTheRunLevelThatIsAddedWhole() {
		VariancePrior shipped = VariancePrior.SHIPPED;
		// Tomcat + VT: its crossing spread 6.9% between five runs, its run level 3.5%: 2 × (0.069² - 0.035²) = 0.007072
		// (8.4%), where 2 × 0.069² (9.8%) held the run level a second time beside the one added whole.
		assertThat(shipped.variance("app-tomcat-loom")).isCloseTo(0.007072, within(1e-9));
		assertThat(Math.sqrt(shipped.variance("app-webflux-loom"))).isCloseTo(0.2314, within(0.0001));
		// A two-JVM run's crossing: the JVM level halved and the run level whole give back the spread between runs measured.
		assertThat(shipped.variance("app-webflux") / 2 + shipped.runVariance("app-webflux")).isCloseTo(0.091 * 0.091, within(1e-9));
		// The platform pool's runs spread 0.9%, less than the run level it is given (3.5%): no JVM level, and quiet.
		assertThat(shipped.variance("app-tomcat-platform")).isZero();
		assertThat(shipped.quiet("app-tomcat-platform")).isTrue();
		assertThat(shipped.quiet("app-tomcat-loom")).isFalse();
		// A tuned arm is its variant; a service the lab does not ship has otherSd.
		assertThat(shipped.variance("app-tomcat-loom.tuned")).isEqualTo(shipped.variance("app-tomcat-loom"));
		assertThat(shipped.variance("svc")).isCloseTo(0.075 * 0.075, within(1e-12));
	}

	@Test
	void aJvmLevelIsNeverNegative() {
		assertThat(VariancePrior.jvmVariance(0.01, 0.002)).isCloseTo(0.016, within(1e-12));
		assertThat(VariancePrior.jvmVariance(0.001, 0.002)).isZero();
	}

}
