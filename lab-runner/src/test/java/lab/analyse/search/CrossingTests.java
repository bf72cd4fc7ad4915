package lab.analyse.search;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import lab.analyse.judge.LevelResult.Verdict;
import lab.analyse.search.JvmLevels.Tagged;
import lab.layout.LatencyTarget;
import lab.plan.VariancePrior;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The crossing, the elasticity and the hierarchical interval, by hand. */
class CrossingTests {

	private static RoundProbe probe(int round, int load, double p99, int jvm) {
		return new RoundProbe(round, 1, "v", load, Verdict.OK, p99 <= 1000, p99, "", "v/" + load, jvm, "");
	}

	private static RoundProbe probe(int load, double p99) {
		return probe(1, load, p99, 1);
	}

	private static Round round(int index, Round.Kind kind) {
		return new Round(index, kind, List.of("v"), 100.0, 100.0, 0.0, false, null);
	}

	private static SearchRecord record(List<Round> rounds, List<RoundProbe> probes) {
		Map<String, BracketFound> brackets = new LinkedHashMap<>();
		brackets.put("v", new BracketFound(1_000, 2_000, false, ""));
		return new SearchRecord("default", LatencyTarget.DEFAULT, "v", null, List.of("v"), new SearchSettings(1_000, 16_000, 50, 4, 5, 10, 2, 1, LatencyTarget.DEFAULT, 500),
				rounds, probes, brackets, Map.of(), null);
	}

	@Test
	void betweenAMetAndAMissedProbeTheCrossingIsInterpolatedInLogLatency() {
		// ln(1000/800) / ln(1250/800) = 0.2231 / 0.4463 = 0.5: halfway between 2,000 and 2,200 in log load, 2,000·1.1^0.5 = 2,097.6.
		assertThat(Crossing.between(probe(2_000, 800), probe(2_200, 1_250), 1000)).isCloseTo(2_097.6, within(0.1));
		RoundProbe failed = new RoundProbe(1, 1, "v", 2_400, Verdict.FAILED, false, null, "OutOfMemoryError", "v/2400");
		assertThat(Crossing.between(probe(2_000, 800), failed, 1000)).isEqualTo(2_200);
	}

	@Test
	void aProbeNearTheKneePlacesTheCrossingWithTheElasticity() {
		// p99 = 1000 · (load / 2,000)^2: elasticity 2, no residual: its range is the value itself.
		List<RoundProbe> probes = List.of(probe(1_800, 1000 * 0.9 * 0.9), probe(2_100, 1000 * 1.05 * 1.05), probe(1_900, 1000 * 0.95 * 0.95),
				probe(2_200, 1000 * 1.1 * 1.1));
		Elasticity e = Elasticity.fit(probes, 1000, 500);
		assertThat(e.value()).isCloseTo(2, within(1e-9));
		assertThat(e.low()).isCloseTo(2, within(1e-6));
		assertThat(e.clamped()).isFalse();
		// 1,900·(1000/902.5)^(1/2) = 2,000.
		assertThat(Crossing.at(probes.get(2), e.value(), 1000, 500)).isCloseTo(2_000, within(1e-6));
		// Never extrapolated past twice the probe's load: 1,000·(1000/700)^(1/0.5) = 2,041 → 2,000.
		assertThat(Crossing.at(probe(1_000, 700), 0.5, 1000, 500)).isEqualTo(2_000);
		// Farther than twice from the target, or near the floor (1.3 × 500 ms): none.
		assertThat(Crossing.at(probe(1_000, 640), 1, 1000, 500)).isNaN();
		assertThat(Crossing.at(probe(3_000, 2_100), 1, 1000, 500)).isNaN();
		assertThat(Crossing.at(probe(3_000, 1_600), 1, 1000, 500)).isCloseTo(1_875, within(1e-6));
	}

	@Test
	void aFlatKneeClampedAtItsBoundKeepsTheFitInItsRangeAndWidensTheInterval() {
		// p99 = 1000·(load/3,000)^0.35 with a wobble: the fit is near 0.35, below the bound 0.5. Crossings are placed with 0.5,
		// and the range reaches below 0.35, so the interval holds what the crossings would be with the fitted value.
		double[] wobble = { 1.03, 0.97, 1.02, 0.98, 1.01, 0.99 };
		int[] loads = { 2_800, 3_200, 2_700, 3_300, 2_900, 3_100 };
		List<RoundProbe> probes = new ArrayList<>();
		List<Round> rounds = new ArrayList<>();
		for (int r = 0; r < loads.length; r++) {
			probes.add(probe(r + 1, loads[r], 1000 * Math.pow(loads[r] / 3000.0, 0.35) * wobble[r], (r < 3) ? 1 : 2));
			rounds.add(round(r + 1, Round.Kind.REFINE));
		}
		SearchSummary.EntryResult v = SearchSummary.of(record(rounds, probes)).entry("v");
		assertThat(v.elasticity().clamped()).isTrue();
		assertThat(v.elasticity().value()).isEqualTo(Elasticity.MIN);
		assertThat(v.elasticity().low()).isLessThan(0.35);
		// The same probes' crossings placed with 0.35: their geometric mean lies inside the widened interval.
		double[] at035 = probes.stream().mapToDouble(p -> Crossing.at(p, 0.35, 1000, 500)).toArray();
		double mean035 = Interval.ofGeometricMean(at035).estimate();
		assertThat(v.capacity().low()).isLessThanOrEqualTo(mean035);
		assertThat(v.capacity().high()).isGreaterThanOrEqualTo(mean035);
		// And wider than the rounds alone give (t over the JVMs' spread, the same prior, no elasticity error).
		Interval roundsOnly = JvmLevels.intervals(List.of(probes.stream().map(p -> new Tagged("jvm" + p.jvmNumber(),
				Math.log(Crossing.at(p, Elasticity.MIN, 1000, 500)))).toList()), List.of(VariancePrior.SHIPPED.variance("v")), VariancePrior.SHIPPED).get(0);
		assertThat(v.capacity().high() / v.capacity().low()).isGreaterThan(roundsOnly.high() / roundsOnly.low());
	}

	@Test
	void aBracketsStraddlingPairReadsAFlatKneeSteeperAndTheElasticityTakesThatOut() {
		// The selection drawn, apart from the formula: a knee of 0.45, a p99 wobble of 11%, probes 1.5x apart with the
		// target's crossing anywhere between them; a pair is kept only where the lower one met and the upper one missed.
		double e = 0.45;
		double sigma = 0.11;
		double step = Math.log(1.5);
		java.util.Random random = new java.util.Random(1);
		double sum = 0;
		int kept = 0;
		for (int i = 0; i < 400_000; i++) {
			double above = step * random.nextDouble();
			double met = -e * above + sigma * random.nextGaussian();
			double missed = e * (step - above) + sigma * random.nextGaussian();
			if (met < 0 && missed > 0) {
				sum += (missed - met) / step;
				kept++;
			}
		}
		double drawn = sum / kept;
		assertThat(drawn).as("the kept pairs' mean slope").isBetween(0.6, 0.7);
		assertThat(Elasticity.straddleSlope(e, sigma, step)).isCloseTo(drawn, within(0.005));
		assertThat(Elasticity.unselected(Elasticity.straddleSlope(e, sigma, step), sigma, step)).isCloseTo(e, within(1e-4));
		// A steep knee rises well past the wobble across the step: its pair is hardly selected (under 1%).
		assertThat(Elasticity.straddleSlope(3, sigma, step) / 3 - 1).isBetween(0.0, 0.01);
		// A fit whose probes hold the bracket's pair (met at 2,000, missed at 3,000) is read flatter; one without, as fitted.
		List<RoundProbe> probes = List.of(probe(1, 2_000, 870, 1), probe(2, 3_000, 1_180, 1), probe(3, 2_400, 1_020, 1), probe(4, 2_300, 960, 1));
		BracketFound pair = new BracketFound(2_000, 3_000, false, "");
		Elasticity fitted = Elasticity.fit(probes, 1000, 500);
		Elasticity read = Elasticity.of(probes, pair, probes, 1000, 500, Elasticity.WOBBLE);
		assertThat(read.value()).isLessThan(fitted.value());
		assertThat(read.value()).isCloseTo(Elasticity.unselected(fitted.value(), Elasticity.WOBBLE, Math.log(1.5)), within(1e-9));
		List<RoundProbe> refining = List.of(probe(1, 2_200, 930, 1), probe(2, 2_600, 1_060, 1), probe(3, 2_400, 1_020, 1), probe(4, 2_300, 960, 1));
		assertThat(Elasticity.of(refining, pair, probes, 1000, 500, Elasticity.WOBBLE)).isEqualTo(Elasticity.fit(refining, 1000, 500));
	}

	@Test
	void aRunsWobbleIsItsFitsResidualsPooledWithTheLabsFigure() {
		// One JVM, four probes: ln p99 on ln load has slope 0.87518 and residual squares 0.0012196 over 2 degrees of freedom;
		// with the lab's 11% weighing 6: sqrt((0.0012196 + 6 · 0.11²) / (2 + 6)) = 0.096060.
		List<RoundProbe> fitted = List.of(probe(1, 1_000, 900, 1), probe(2, 1_100, 1_010, 1), probe(3, 1_200, 1_040, 1), probe(4, 1_300, 1_150, 1));
		assertThat(Elasticity.wobble(List.of(fitted), 1000, 500)).isCloseTo(0.096060, within(1e-6));
		// An entry with no slope within a JVM (one probe on each) adds nothing: the lab's figure alone.
		assertThat(Elasticity.wobble(List.of(List.of(probe(1, 1_000, 900, 1), probe(2, 1_100, 1_010, 2))), 1000, 500)).isEqualTo(Elasticity.WOBBLE);
		// Each entry's own: its residual variance 0.0006098 (2 df), its log freed of the bias ψ(1) − ln 1 = −0.57722:
		// −7.40238 + 0.57722 = −6.82516, shrunk toward a run's 11% (ln 0.0121 = −4.41455) weighing 6:
		// exp((2 · −6.82516 + 6 · −4.41455) / 8) = 0.0066230, its root 0.081382.
		assertThat(Elasticity.entryWobble(fitted, 1000, 500, 0.11)).isCloseTo(0.081382, within(1e-5));
		assertThat(Elasticity.entryWobble(List.of(probe(1, 1_000, 900, 1), probe(2, 1_100, 1_010, 2)), 1000, 500, 0.127)).isEqualTo(0.127);
	}

	@Test
	void aQuietPoolIsNotReadFlatterByANoisyVariantsWobble() {
		// The platform pool of a capacity run at 06bc188 (one JVM): seven probes from 313 to 572 users, p99 about 1% off
		// its curve, fitted 0.98; the bracket's pair 381 (met) and 480 (missed). The run's wobble, its other variants'
		// residuals pooled, was 12.7%: undone with that, the pair read the knee at 0.25, the elasticity sat at its floor,
		// and crossings placed with it spread the pool's capacity ±23% where its probes spread 1-2%. With its own
		// wobble (about 4%) it stays near its fit.
		List<RoundProbe> probes = List.of(probe(1, 381, 980, 1), probe(2, 572, 1_477, 1), probe(3, 480, 1_231, 1), probe(4, 313, 820, 1),
				probe(5, 385, 991, 1), probe(6, 347, 898, 1), probe(7, 399, 1_020, 1));
		BracketFound pair = new BracketFound(381, 480, false, "");
		assertThat(Elasticity.fit(probes, 1000, 500).value()).isCloseTo(0.98, within(0.01));
		assertThat(Elasticity.of(probes, pair, probes, 1000, 500, 0.127).value()).isEqualTo(Elasticity.MIN);
		double own = Elasticity.entryWobble(probes, 1000, 500, 0.127);
		assertThat(own).isBetween(0.02, 0.05);
		assertThat(Elasticity.of(probes, pair, probes, 1000, 500, own).value()).isBetween(0.9, 0.98);
	}

	@Test
	void aRoundsCrossingRestsOnItsOwnProbeOnly() {
		// Round 1 met at 1,900 (p99 902.5), round 2 missed at 2,100 (p99 1,102.5): each placed with elasticity 2 from its own
		// probe, 2,000 both, and round 3 at 1,950 (p99 900: not on the curve) gives its own 1,950·(1000/900)^(1/2) = 2,055.5,
		// not the interpolation between it and round 2's probe.
		List<RoundProbe> probes = List.of(probe(1, 1_900, 902.5, 1), probe(2, 2_100, 1_102.5, 1), probe(3, 1_950, 900, 2), probe(4, 1_800, 810, 2));
		List<Round> rounds = List.of(round(1, Round.Kind.REFINE), round(2, Round.Kind.REFINE), round(3, Round.Kind.REFINE), round(4, Round.Kind.REFINE));
		SearchSummary.EntryResult v = SearchSummary.of(record(rounds, probes)).entry("v");
		double slope = v.slope();
		for (int r = 0; r < probes.size(); r++) {
			assertThat(v.crossings().get(r)).as("round %d", r + 1).isCloseTo(Crossing.at(probes.get(r), slope, 1000, 500), within(1e-9));
		}
		assertThat(v.crossings()).doesNotHaveDuplicates();
		// A marked round places nothing and shapes no elasticity.
		List<Round> marked = List.of(round(1, Round.Kind.REFINE), round(2, Round.Kind.REFINE), new Round(3, Round.Kind.REFINE, List.of("v"), 100.0, 130.0, 0.0,
				true, null), round(4, Round.Kind.REFINE));
		assertThat(SearchSummary.of(record(marked, probes)).entry("v").crossings()).hasSize(3);
	}

	@Test
	void aCrossingNeverPassesALoadThatBrokeItsJvmAndTheIntervalThenReachesIt() {
		// Met at 1,120 (p99 772) with a flat elasticity would place 1,120·(1000/772)^2 = 1,879; the JVM broke at 1,300 in
		// another round: the crossing stops at 1,300 and the interval reaches from 1,120 (met) to 1,300.
		RoundProbe broke = new RoundProbe(2, 1, "v", 1_300, Verdict.FAILED, false, null, "OutOfMemoryError", "v/1300", 1, "");
		List<RoundProbe> probes = List.of(probe(1, 1_120, 772, 1), broke, probe(3, 1_100, 760, 2));
		List<Round> rounds = List.of(round(1, Round.Kind.REFINE), round(2, Round.Kind.REFINE), round(3, Round.Kind.REFINE));
		SearchSummary.EntryResult v = SearchSummary.of(record(rounds, probes)).entry("v");
		assertThat(v.wall()).isEqualTo(1_300);
		assertThat(v.crossings().get(0)).isLessThanOrEqualTo(1_300);
		assertThat(v.capacity().low()).isLessThanOrEqualTo(1_120);
		assertThat(v.capacity().high()).isGreaterThanOrEqualTo(1_300);
	}

	@Test
	void theHierarchicalIntervalOnAHandWorkedExample() {
		// Two series (entries), two JVMs each, two rounds per JVM, log values:
		//   A: jvm1 [0, 0.02], jvm2 [0.10, 0.12]   B: jvm1 [0, 0.04], jvm2 [0.02, 0.06]
		// Within a JVM: A's squares 0.0002 + 0.0002 over 2 df = 0.0002; B's 0.0008 + 0.0008 over 2 = 0.0008.
		// JVM means: A 0.01, 0.11 (variance 0.005); B 0.02, 0.04 (0.0002). σ²_jvm: A 0.005 - 0.0002/2 = 0.0049; B 0.0002 -
		// 0.0008/2 = -0.0002; pooled with the prior (2 df of 0.075² = 0.005625): (0.0049 - 0.0002 + 2·0.005625) / (2 + 2) =
		// 0.0039875, 4 df. A: estimate 0.06; variance 0.0039875/2 + 0.0002·(1/2)/2 = 0.00199375 + 0.00005 = 0.00204375,
		// SE 0.045208; Satterthwaite df = 0.00204375² / (0.00199375²/4 + 0.00005²/2) = 4.17691e-6 / (9.9376e-7 + 1.25e-9) = 4.1979.
		List<Tagged> a = List.of(new Tagged("1", 0), new Tagged("1", 0.02), new Tagged("2", 0.10), new Tagged("2", 0.12));
		List<Tagged> b = List.of(new Tagged("1", 0), new Tagged("1", 0.04), new Tagged("2", 0.02), new Tagged("2", 0.06));
		Interval ia = JvmLevels.intervals(List.of(a, b), List.of(0.005625, 0.005625), VariancePrior.UNIFORM).get(0);
		assertThat(Math.log(ia.estimate())).isCloseTo(0.06, within(1e-12));
		assertThat(ia.df()).isCloseTo(4.1979, within(1e-3));
		assertThat(ia.jvms()).isEqualTo(2);
		assertThat(ia.n()).isEqualTo(4);
		assertThat(ia.jvmLevel()).isEqualTo(Interval.JvmLevel.POOLED);
		// t(4.20) = 2.74 (between t(4) 2.776 and t(5) 2.571): half-width 2.74 × 0.045208 = 0.1239.
		assertThat(Interval.t95(4.1979)).isBetween(2.70, 2.776);
		assertThat(Math.log(ia.high()) - 0.06).isCloseTo(Interval.t95(4.1979) * 0.045208, within(1e-5));
		// Every entry on one JVM: the prior alone stands in for the JVM level (2 df: t 4.30), and says so.
		Interval one = JvmLevels.intervals(List.of(List.of(new Tagged("1", 0), new Tagged("1", 0.02), new Tagged("1", 0.01))), List.of(0.005625), VariancePrior.UNIFORM).get(0);
		assertThat(one.jvmLevel()).isEqualTo(Interval.JvmLevel.PRIOR);
		assertThat(one.high() / one.estimate()).isGreaterThan(Math.exp(0.075 * 2));
	}

	@Test
	void perVariantPriorsAreRescaledAlikeByTheRunsOwnJvmsOnAHandWorkedExample() {
		// The same two series as above, a noisy variant's (prior 0.01: 10%) and a quiet one's (prior 0.0001: 1%), the
		// prior worth 4 df. The run's spread beyond its rounds, 0.0049 - 0.0002 = 0.0047, against its priors' 0.0101;
		// the prior a scale of 1 at 4 × their mean (0.00505): scale (0.0047 + 0.0202) / (0.0101 + 0.0202) = 0.82178.
		// A: JVM part 0.0082178 / 2 = 0.0041089, rounds 0.00005, SE 0.064490, df 0.0041589² / (0.0041089² / 6 +
		// 0.00005² / 2) = 6.144. B: JVM part 0.0000822 / 2 = 0.0000411, rounds 0.0002, SE 0.015527, df 2.866.
		List<Tagged> a = List.of(new Tagged("1", 0), new Tagged("1", 0.02), new Tagged("2", 0.10), new Tagged("2", 0.12));
		List<Tagged> b = List.of(new Tagged("1", 0), new Tagged("1", 0.04), new Tagged("2", 0.02), new Tagged("2", 0.06));
		VariancePrior prior = new VariancePrior("a hand-worked example", 4, 0.075, java.util.Map.of(), 0.0, java.util.Map.of(), true);
		List<Interval> both = JvmLevels.intervals(List.of(a, b), List.of(0.01, 0.0001), prior);
		assertThat(both.get(0).df()).isCloseTo(6.144, within(1e-3));
		assertThat(Math.log(both.get(0).high()) - 0.06).isCloseTo(Interval.t95(6.144) * 0.064490, within(1e-5));
		assertThat(both.get(1).df()).isCloseTo(2.866, within(1e-3));
		assertThat(Math.log(both.get(1).high()) - 0.03).isCloseTo(Interval.t95(2.866) * 0.015527, within(1e-5));
		// The negative control: no JVM level, rounds alone, far narrower.
		Interval roundsAlone = JvmLevels.intervals(List.of(a, b), List.of(0.01, 0.0001), prior.withoutJvmTerm()).get(0);
		assertThat(Math.log(roundsAlone.high() / roundsAlone.low())).isLessThan(Math.log(both.get(0).high() / both.get(0).low()) / 2);
		// A run level of 0.002 (4.5%) on A, known only from the prior (4 df): added whole, not divided by the JVMs. SE² 0.0041089
		// + 0.00005 + 0.002 = 0.0061589 (SE 0.078479); df 0.0061589² / (0.0041089² / 6 + 0.00005² / 2 + 0.002² / 4) = 9.943.
		Interval withRun = JvmLevels.intervals(List.of(a, b), List.of(0.01, 0.0001), List.of(0.002, 0.0), prior).get(0);
		assertThat(withRun.df()).isCloseTo(9.943, within(1e-3));
		assertThat(Math.log(withRun.high()) - 0.06).isCloseTo(Interval.t95(9.943) * 0.078479, within(1e-5));
		assertThat(JvmLevels.intervals(List.of(a, b), List.of(0.01, 0.0001), List.of(0.002, 0.0), prior).get(1)).isEqualTo(both.get(1));
		// The shipped prior names each variant's spread; an arm's or twin's label is its variant's; others get otherSd.
		assertThat(VariancePrior.SHIPPED.variance("app-tomcat-platform.aa")).isEqualTo(VariancePrior.SHIPPED.variance("app-tomcat-platform"));
		assertThat(VariancePrior.SHIPPED.variance("app-webflux-loom")).isGreaterThan(100 * VariancePrior.SHIPPED.variance("app-tomcat-platform"));
		assertThat(VariancePrior.SHIPPED.variance("my-service")).isCloseTo(VariancePrior.SHIPPED.otherSd() * VariancePrior.SHIPPED.otherSd(), within(1e-12));
		// And each variant's run level, a twin's its variant's, any other service the pooled one.
		assertThat(VariancePrior.SHIPPED.runVariance("app-webflux.aa")).isEqualTo(VariancePrior.SHIPPED.runVariance("app-webflux")).isGreaterThan(0);
		assertThat(VariancePrior.SHIPPED.runVariance("my-service")).isCloseTo(VariancePrior.SHIPPED.runSd() * VariancePrior.SHIPPED.runSd(), within(1e-12));
		assertThat(VariancePrior.SHIPPED.withoutRunLevel().runVariance("app-webflux")).isZero();
	}

	@Test
	void theIntervalOfRepeatsIsAStudentTIntervalOfTheMeanLogToThreeFigures() {
		Interval one = Interval.ofGeometricMean(new double[] { 0.5 });
		assertThat(one.hasSpread()).isFalse();
		assertThat(one.asRatio()).isEqualTo("0.500 (1 JVM, 1 round, no interval)");
		// Logs of 0.45, 0.5, 0.55: mean -0.6965 (geometric mean 0.4983); sd 0.1004, /√3 = 0.0580; t(2) 4.303 → ±0.2494:
		// e^(-0.9459) = 0.3883 to e^(-0.4471) = 0.6395.
		Interval three = Interval.ofGeometricMean(new double[] { 0.45, 0.5, 0.55, Double.NaN });
		assertThat(three.estimate()).isCloseTo(0.4983, within(1e-4));
		assertThat(three.low()).isCloseTo(0.3883, within(1e-3));
		assertThat(three.high()).isCloseTo(0.6395, within(1e-3));
		assertThat(three.asRatio()).isEqualTo("0.498 (0.388-0.639, 3 JVMs, 3 rounds)");
		assertThat(Interval.figure(3_088, true)).isEqualTo("3,090");
		assertThat(Interval.figure(0.12, false)).isEqualTo("0.120");
		assertThat(Interval.ofGeometricMean(new double[] { 1.02, 1.05, 1.03 }).holds(1.0)).isTrue();
		assertThat(Interval.ofGeometricMean(new double[] { 1.10, 1.12, 1.11 }).holds(1.0)).isFalse();
	}

	@Test
	void theSizingSentenceNamesTheJvmsAndMinutesThatWouldResolveARatio() {
		// Half-width 0.1 in log over 2 JVMs at 5 df: per JVM 0.1 / t(5) 2.5706 · √2 = 0.055016; to ±5% (ln 1.05 = 0.048790)
		// at 1.96: (1.96 · 0.055016 / 0.048790)² = 4.885 → 5 JVMs, 3 more; 2 rounds a JVM, 5 entries, a start 90 s and a
		// probe 35 s: 3 · 5 · (90 + 2 · 35) / 60 = 40 min.
		List<SearchSummary.EntryResult> five = new ArrayList<>();
		for (String name : List.of("a", "b", "c", "d", "e")) {
			five.add(new SearchSummary.EntryResult(name, null, Elasticity.PRIOR_RANGE, List.of(), Interval.NONE, 0, null, ""));
		}
		SearchRecord record = new SearchRecord("default", null, "a", null, List.of("a", "b", "c", "d", "e"), null, List.of(), List.of(), Map.of(), Map.of(),
				new SearchCosts(90, 35));
		Interval interval = new Interval(1.0, Math.exp(-0.1), Math.exp(0.1), 4, 2, 5, Interval.JvmLevel.POOLED);
		assertThat(Sizing.of(interval, record.costs(), five.size(), 0)).isEqualTo(new Sizing(3, 40, 0));
		assertThat(lab.report.SearchPrecision.sizing(Sizing.of(interval, record.costs(), five.size(), 0))).isEqualTo(" (about 3 more JVMs each to resolve, ≈ 40 min at this run's costs)");
		// With a run level of 0.0004 (2%: ±3.9% alone) the JVMs must bring the rest to 1.96² · 0.0004 short of the goal:
		// (0.1 / 2.5706)² - 0.0004 = 0.0011133 of variance, × 2 JVMs = 0.0022266 per JVM; 1.96² · 0.0022266 / (0.048790² -
		// 1.96² · 0.0004) = 0.0085536 / 0.00084374 = 10.14 → 11 JVMs, 9 more.
		assertThat(Sizing.of(interval, record.costs(), five.size(), 0.0004).moreJvms()).isEqualTo(9);
		// A run level of 3% alone is ±6.1%: no number of JVMs in one run reaches ±5%, and the sentence says so.
		Sizing none = Sizing.of(interval, record.costs(), five.size(), 0.0009);
		assertThat(none.reachable()).isFalse();
		assertThat(lab.report.SearchPrecision.sizing(none)).isEqualTo(" (no number of JVMs in one run resolves it: the run level alone is ±6%; repeat the run and compare)");
	}

}
