package lab.analyse.search;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** A variance study's components and causes, worked by hand on the log scale. */
class VarianceStudyTests {

	/** Values whose logs are the given numbers. */
	private static List<Double> exp(double... logs) {
		return java.util.Arrays.stream(logs).map(Math::exp).boxed().toList();
	}

	@Test
	void theSpreadBetweenJvmsIsWhatTheirMeansVaryBeyondTheirOwnProbes() {
		// Logs 0.0/0.2, 0.4/0.6, 0.2/0.4: JVM means 0.1, 0.5, 0.3 about 0.3. SSB = 2 × (0.04 + 0.04 + 0) = 0.16, MSB = 0.08;
		// SSW = 3 × 2 × 0.01 = 0.06 on 3 df, MSW = 0.02; n0 = 2: between (0.08 - 0.02) / 2 = 0.03, a JVM's mean 0.08 / 2 = 0.04.
		VarianceStudy.Spread s = VarianceStudy.spread(Map.of(1, exp(0.0, 0.2), 2, exp(0.4, 0.6), 3, exp(0.2, 0.4)));
		assertThat(s.jvms()).isEqualTo(3);
		assertThat(s.probes()).isEqualTo(6);
		assertThat(s.mean()).isCloseTo(Math.exp(0.3), within(1e-9));
		assertThat(s.betweenSd()).isCloseTo(Math.sqrt(0.03), within(1e-9));
		assertThat(s.withinSd()).isCloseTo(Math.sqrt(0.02), within(1e-9));
		assertThat(s.jvmMeanVariance()).isCloseTo(0.04, within(1e-9));
		assertThat(s.n0()).isEqualTo(2.0);
		// The upper end: MSB / MSW = 4 over F(2, 3)'s 2.5% point is the ratio of the components' bound, less 1, over n0, times MSW.
		double ratioHigh = 4 / org.apache.commons.statistics.distribution.FDistribution.of(2, 3).inverseCumulativeProbability(0.025);
		assertThat(s.betweenSdHigh()).isCloseTo(Math.sqrt((ratioHigh - 1) / 2 * 0.02), within(1e-9)).isGreaterThan(s.betweenSd());
	}

	@Test
	void unequalProbesPerJvmAreWeighedByNZeroAndTooLittleDataIsNoSpread() {
		// 1, 2 and 3 probes: n0 = (6 - 14 / 6) / 2.
		VarianceStudy.Spread s = VarianceStudy.spread(Map.of(1, exp(0.1), 2, exp(0.2, 0.4), 3, exp(0.0, 0.1, 0.2)));
		assertThat(s.n0()).isCloseTo((6 - 14.0 / 6) / 2, within(1e-12));
		// Means 0.1, 0.3, 0.1 about 1.0 / 6: SSB = (1/15)² + 2 × (2/15)² + 3 × (1/15)² = 0.06 / 1.5, SSW = 0.02 + 0.02 = 0.04 on 3 df.
		double msb = (Math.pow(1.0 / 15, 2) + 2 * Math.pow(2.0 / 15, 2) + 3 * Math.pow(1.0 / 15, 2)) / 2;
		assertThat(s.jvmMeanVariance()).isCloseTo(msb / s.n0(), within(1e-12));
		assertThat(s.withinSd()).isCloseTo(Math.sqrt(0.04 / 3), within(1e-12));
		assertThat(VarianceStudy.spread(Map.of(1, exp(0.1, 0.2)))).as("one JVM").isNull();
		assertThat(VarianceStudy.spread(Map.of(1, exp(0.1), 2, exp(0.2)))).as("one probe each: no spread within to tell apart").isNull();
		// Probes without a p99 are left out; a JVM with none is no JVM.
		assertThat(VarianceStudy.spread(Map.of(1, java.util.Arrays.asList(null, Math.exp(0.1)), 2, exp(0.2, 0.3), 3, java.util.Arrays.asList((Double) null)))
			.jvms()).isEqualTo(2);
	}

	@Test
	void aCauseIsTheRatioOfTheVariancesOfAJvmsMeanWithItsFInterval() {
		VarianceStudy.Spread base = VarianceStudy.spread(Map.of(1, exp(0.0, 0.2), 2, exp(0.4, 0.6), 3, exp(0.2, 0.4)));
		// Means 0.1, 0.2, 0.15 about 0.15: MSB = 2 × 2 × 0.0025 / 2 = 0.005 < MSW 0.02, so no component between JVMs.
		VarianceStudy.Spread arm = VarianceStudy.spread(Map.of(1, exp(0.0, 0.2), 2, exp(0.1, 0.3), 3, exp(0.05, 0.25)));
		assertThat(arm.betweenSd()).isZero();
		VarianceStudy.Cause cause = VarianceStudy.cause(arm, base);
		assertThat(cause.ratio()).isCloseTo(0.0025 / 0.04, within(1e-12));
		// F(2, 2)'s 97.5% point is 39: the interval is the ratio / 39 to the ratio × 39.
		assertThat(cause.low()).isCloseTo(0.0625 / 39, within(1e-9));
		assertThat(cause.high()).isCloseTo(0.0625 * 39, within(1e-9));
		assertThat(cause.verdict()).isEqualTo("not told apart");
		assertThat(cause.shareExplained()).isEqualTo(1.0);
		assertThat(cause.shift()).isCloseTo(Math.exp(0.15 - 0.3), within(1e-12));
		// Welch on the JVM means: variances 0.0025 / 3 and 0.04 / 3, df = (0.0425/3)² / ((0.0025/3)² / 2 + (0.04/3)² / 2).
		double a = 0.0025 / 3;
		double b = 0.04 / 3;
		double df = (a + b) * (a + b) / (a * a / 2 + b * b / 2);
		double t = org.apache.commons.statistics.distribution.TDistribution.of(df).inverseCumulativeProbability(0.975) * Math.sqrt(a + b);
		assertThat(cause.shiftLow()).isCloseTo(Math.exp(-0.15 - t), within(1e-9));
		assertThat(cause.shiftHigh()).isCloseTo(Math.exp(-0.15 + t), within(1e-9));
		assertThat(new VarianceStudy.Cause(0.2, 0.05, 0.8, 0.7, 1, 0.9, 1.1).verdict()).isEqualTo("narrower");
		assertThat(new VarianceStudy.Cause(5, 1.5, 20, -3, 1, 0.9, 1.1).verdict()).isEqualTo("wider");
		assertThat(VarianceStudy.cause(arm, null)).isNull();
	}

	private static VarianceStudy.Probe probe(String arm, int jvm, int probe, double p99) {
		String entry = arm.equals("default") ? "app-jetty-loom" : "app-jetty-loom." + arm;
		return new VarianceStudy.Probe(entry, "app-jetty-loom", arm, jvm, probe, 1200, p99, 2000 + jvm, true, entry + "/users-1200-round" + probe, 0.4, 2.0,
				1.0, 100.0, "the core");
	}

	@Test
	void theTextPutsTheDefaultArmFirstEachCauseBesideItAndEachJvmBesideItsProbes() {
		// The cause ran first; the default arm is still the first row and the one each cause is compared with.
		List<VarianceStudy.Probe> probes = List.of(probe("heap-fixed", 1, 1, 100), probe("heap-fixed", 1, 2, 102), probe("default", 1, 1, 90),
				probe("default", 1, 2, 92), probe("heap-fixed", 2, 1, 101), probe("heap-fixed", 2, 2, 99), probe("default", 2, 1, 130), probe("default", 2, 2, 128));
		VarianceStudy.Record record = new VarianceStudy.Record("", 2, 2, 1, Map.of(), List.of(54.1, 55.0),
				List.of(new VarianceStudy.Jvm("app-jetty-loom", 1, "app-jetty-loom", Map.of("youngCapacityBytes", 8 << 20, "oldCapacityBytes", 20 << 20,
						"youngGcs", 101, "fullGcs", 7, "gcSeconds", 1.5, "compiles", 11928, "nmethodCodeBytes", 18 << 20))), probes, null, null);
		String text = VarianceStudy.text(record);
		assertThat(text).contains("2 fresh JVMs of each entry, each probed 2 times; CPU reference on the service's core before each batch: 54.1, 55.0 ms.");
		assertThat(text.indexOf("| app-jetty-loom | default |")).isPositive().isLessThan(text.indexOf("| app-jetty-loom | heap-fixed |"));
		assertThat(text).contains("| app-jetty-loom | default | 2 | 4 of 4 | 1200 |").containsPattern("\\| ±\\d+\\.\\d% \\(≤ \\d+\\.\\d%\\) \\|");
		assertThat(text).containsPattern("- app-jetty-loom, heap-fixed against default: a JVM's mean p99 varies 0\\.\\d\\d times as much \\(95%: ")
			.containsPattern("p99 [-+]\\d+% \\(95%: [-+]\\d+% to [-+]\\d+%\\), throughput [-+]\\d+\\.\\d% \\(");
		assertThat(text).contains("| app-jetty-loom | 1 | 90, 92 | 0.400, 0.400 | 2.0, 2.0 | 8.0 / 20.0 | 101 / 7 | 1.50 | 11,928 | 18.0 |");
		assertThat(text).as("a JVM whose counters were not read").contains("| app-jetty-loom | 2 | 130, 128 | 0.400, 0.400 | 2.0, 2.0 | - / - | - / - | - | - | - |");
		assertThat(VarianceStudy.text(new VarianceStudy.Record("", 2, 2, 1, Map.of(), List.of(), List.of(), probes.subList(0, 2), "stopped by the person running it", "default")))
			.startsWith("Stopped before its end (stopped by the person running it)");
	}

	@Test
	void theHistoryArmIsACauseBesideItsDefaultAndItsHistoryProbesAreListedApartFromTheFigures() {
		// The history arm's counted probes are an arm of their own; the probe at twice the load (probe 0) is only listed.
		List<VarianceStudy.Probe> probes = List.of(probe("default", 1, 1, 900), probe("default", 1, 2, 920), probe("default", 2, 1, 950),
				probe("default", 2, 2, 930), probe("default after 2x", 1, 1, 1100), probe("default after 2x", 1, 2, 1150), probe("default after 2x", 2, 1, 1050),
				probe("default after 2x", 2, 2, 1120));
		VarianceStudy.Probe preload = new VarianceStudy.Probe("app-jetty-loom.after-2x", "app-jetty-loom", "default after 2x", 1, 0, 2400, 4800.0, 1500, false,
				"app-jetty-loom.after-2x/users-2400-round0", 0.5, 31.5, 1.0, 250.0, "the heap");
		VarianceStudy.Record record = new VarianceStudy.Record("", 2, 2, 1, Map.of(), List.of(54.1), List.of(), probes, null, "default", List.of(preload));
		String text = VarianceStudy.text(record);
		assertThat(text).contains("| app-jetty-loom | default after 2x | 2 | 4 of 4 | 1200 |")
			.containsPattern("- app-jetty-loom, default after 2x against default: a JVM's mean p99 varies \\d+\\.\\d\\d times as much")
			.contains("The history arm's JVMs, each probed first at a multiple of its load")
			.contains("| app-jetty-loom.after-2x | 1 | 2400 | 4800* | 1500 | 31.5 | 250 | not OK, the heap |");
		assertThat(text).as("the history probe is in no figure").doesNotContain("4800,");
		assertThat(new VarianceStudy.Record("", 2, 2, 1, Map.of(), List.of(), List.of(), probes, null, "default").preloads()).isEmpty();
	}

}
