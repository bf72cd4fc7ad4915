package lab.analyse.search;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import lab.report.SearchPrecision;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Ratios across whole runs, and what one run says of its own ratios' precision, from synthetic rounds. */
public class BetweenRunsTests {

	public static SearchSummary.Ratio ratio(String entry, String baseline, double... perRound) {
		return new SearchSummary.Ratio(entry, baseline, Arrays.stream(perRound).boxed().toList(), Interval.ofGeometricMean(perRound));
	}

	static SearchSummary.EntryResult entry(String name, double slope) {
		return new SearchSummary.EntryResult(name, null, new Elasticity(slope, slope, slope, Elasticity.Source.FITTED, false), List.of(), Interval.NONE, 0,
				null, "");
	}

	public static SearchSummary run(SearchSummary.Ratio... ratios) {
		return new SearchSummary(null, List.of(), List.of(ratios), List.of());
	}

	@Test
	void eachRunsRatioIsOneObservationAndTheRunsAgreeOnlyWhenEveryOneIsWithinFivePercent() {
		Map<String, List<SearchSummary>> runs = new LinkedHashMap<>();
		// Each run's rounds agree closely (narrow intervals), but the runs do not: 0.33-0.48 for tomcat-loom.
		runs.put("run1", List.of(run(ratio("tomcat-loom", "webflux", 0.33, 0.34, 0.33), ratio("platform", "webflux", 0.13, 0.13, 0.13))));
		runs.put("run2", List.of(run(ratio("tomcat-loom", "webflux", 0.42, 0.42, 0.43), ratio("platform", "webflux", 0.125, 0.13, 0.13))));
		runs.put("run3", List.of(run(ratio("tomcat-loom", "webflux", 0.37, 0.38, 0.37), ratio("platform", "webflux", 0.13, 0.128, 0.13),
				ratio("jetty-loom", "webflux", 0.45, 0.44))));
		List<BetweenRuns> all = BetweenRuns.of(runs);
		assertThat(all).extracting(BetweenRuns::entry).containsExactly("tomcat-loom", "platform", "jetty-loom");

		BetweenRuns tomcat = all.get(0);
		assertThat(tomcat.runs()).containsExactly("run1", "run2", "run3");
		assertThat(tomcat.perRun()).hasSize(3);
		double mean = Math.exp((Math.log(tomcat.perRun().get(0)) + Math.log(tomcat.perRun().get(1)) + Math.log(tomcat.perRun().get(2))) / 3);
		assertThat(tomcat.interval().estimate()).isCloseTo(mean, within(1e-9));
		assertThat(tomcat.spreadPercent()).isCloseTo(100 * (tomcat.perRun().get(1) / mean - 1), within(1e-9)).isGreaterThan(5);
		assertThat(tomcat.agrees(5)).isFalse();
		assertThat(tomcat.describe()).contains("over 3 runs").contains("not within ±5%");

		BetweenRuns platform = all.get(1);
		assertThat(platform.spreadPercent()).isLessThan(5);
		assertThat(platform.agrees(5)).isTrue();
		assertThat(platform.describe()).contains("they agree within ±5%");

		BetweenRuns jetty = all.get(2);
		assertThat(jetty.agrees(5)).as("one run cannot agree with anything").isFalse();
		assertThat(jetty.describe()).contains("from one run");
	}

	@Test
	void aRatioToAnotherBaselineOrWithoutARoundIsNotMixedIn() {
		Map<String, List<SearchSummary>> runs = new LinkedHashMap<>();
		runs.put("a", List.of(run(ratio("tomcat-loom", "webflux", 0.4, 0.4))));
		runs.put("b", List.of(run(ratio("tomcat-loom", "platform", 3.0, 3.1), ratio("jetty-loom", "platform"))));
		List<BetweenRuns> all = BetweenRuns.of(runs);
		assertThat(all).extracting(b -> b.entry() + "/" + b.baseline()).containsExactly("tomcat-loom/webflux", "tomcat-loom/platform");
		assertThat(all).allSatisfy(b -> assertThat(b.perRun()).hasSize(1));
	}

	@Test
	void pairsLeavingOutANoisyBaselineCanReproduceWhereRatiosToItDoNot() {
		// The baseline's own crossing wobbles between runs (3,078 / 2,853 / 3,226 users): every ratio to it moves with it;
		// the pair of the two sharp knees (1,117 / 389, 1,102 / 386, 1,074 / 385) does not.
		double[] webflux = { 3_078, 2_853, 3_226 };
		double[] tomcat = { 1_117, 1_102, 1_074 };
		double[] platform = { 389, 386, 385 };
		Map<String, List<SearchSummary>> runs = new LinkedHashMap<>();
		for (int i = 0; i < 3; i++) {
			runs.put("run" + (i + 1), List.of(new SearchSummary(null, List.of(),
					List.of(ratio("tomcat", "webflux", tomcat[i] / webflux[i], tomcat[i] / webflux[i]),
							ratio("platform", "webflux", platform[i] / webflux[i], platform[i] / webflux[i])),
					List.of(ratio("tomcat", "webflux", tomcat[i] / webflux[i], tomcat[i] / webflux[i]),
							ratio("platform", "webflux", platform[i] / webflux[i], platform[i] / webflux[i]),
							ratio("platform", "tomcat", platform[i] / tomcat[i], platform[i] / tomcat[i])))));
		}
		assertThat(BetweenRuns.of(runs)).extracting(BetweenRuns::entry).containsExactly("tomcat", "platform");
		assertThat(BetweenRuns.of(runs)).allSatisfy(b -> assertThat(b.agrees(5)).as(b.describe()).isFalse());
		List<BetweenRuns> pairs = BetweenRuns.of(runs, true);
		assertThat(pairs).extracting(b -> b.entry() + "/" + b.baseline()).containsExactly("tomcat/webflux", "platform/webflux", "platform/tomcat");
		assertThat(pairs.get(2).agrees(5)).as(pairs.get(2).describe()).isTrue();
	}

	@Test
	void eachRunsOwnIntervalIsSetBesideTheOtherRunsEstimates() {
		// Run 2's rounds agree closely (0.67-0.68): its own interval is narrow and misses runs 1's and 3's 0.79 and 0.76, as
		// the WebFlux + virtual threads did; runs 1 and 3 are wide enough to hold every estimate.
		Map<String, List<SearchSummary>> runs = new LinkedHashMap<>();
		runs.put("run1", List.of(run(ratio("webflux-loom", "webflux", 0.70, 0.79, 0.89))));
		runs.put("run2", List.of(run(ratio("webflux-loom", "webflux", 0.67, 0.675, 0.68))));
		runs.put("run3", List.of(run(ratio("webflux-loom", "webflux", 0.66, 0.76, 0.86))));
		BetweenRuns b = BetweenRuns.of(runs).get(0);
		assertThat(b.ownIntervals()).hasSize(3);
		assertThat(b.misses()).hasSize(2).allSatisfy(miss -> assertThat(miss).startsWith("run2's "));
		assertThat(b.describe()).contains("a run's own interval missed another's estimate: run2's");
	}

	@Test
	void aRunSaysWhichOfItsRatiosItResolvedToFivePercent() {
		// 0.40 from rounds within 1%: resolved; 0.45 from rounds 0.40-0.50: its interval is far wider; one round: no interval.
		SearchSummary summary = run(ratio("tomcat-loom", "webflux", 0.40, 0.401, 0.399), ratio("jetty-loom", "webflux", 0.40, 0.45, 0.50),
				ratio("platform", "webflux", 0.13));
		assertThat(summary.ratios().get(0).precisionPercent()).isLessThan(1);
		assertThat(summary.ratios().get(1).precisionPercent()).isGreaterThan(5);
		assertThat(summary.ratios().get(2).precisionPercent()).isNaN();
		assertThat(SearchPrecision.of(summary)).startsWith("Ratios this run resolved to ±5% (their 95% interval's half-width): tomcat-loom ±")
			.contains("wider: jetty-loom ±").contains("platform (no interval)").contains("./lab compare");
		assertThat(SearchPrecision.of(summary)).doesNotContain("flat knees");
		assertThat(SearchPrecision.of(run())).isNull();
		// Why: the baseline's p99 rises 0.5% per 1% of load near its crossing, so p99's wobble moves its crossing twice as far.
		SearchSummary flat = new SearchSummary(null, List.of(entry("webflux", 0.5), entry("jetty-loom", 3.0), entry("tomcat-loom", 0.8)),
				summary.ratios(), List.of());
		assertThat(SearchPrecision.of(flat)).contains("flat knees (p99's rise per 1% more load near the crossing): webflux 0.50 (a 5% wobble of p99 moves its crossing 10%)")
			.doesNotContain("jetty-loom 3.00").doesNotContain("tomcat-loom 0.80");
		// A steep fit clamped at the top whose range reaches down to 0.2 is a poorly fitted wall, not a flat knee.
		SearchSummary.EntryResult wall = new SearchSummary.EntryResult("jetty-loom", null, new Elasticity(4, 0.2, 8, Elasticity.Source.FITTED, true),
				List.of(), Interval.NONE, 0, null, "");
		assertThat(SearchPrecision.of(new SearchSummary(null, List.of(entry("webflux", 0.5), wall), summary.ratios(), List.of()))).doesNotContain("jetty-loom 4.00");
	}

	static SearchSummary.Ratio stated(String entry, double estimate, double low, double high) {
		return new SearchSummary.Ratio(entry, "webflux", List.of(estimate), new Interval(estimate, low, high, 4, 2, 4, Interval.JvmLevel.POOLED));
	}

	@Test
	void twoRunsAreJudgedByTheIntervalOfTheirDifferenceNotByEachOthersInterval() {
		Map<String, List<SearchSummary>> runs = new LinkedHashMap<>();
		// Jetty: 0.40 (0.36-0.44) and 0.46 (0.41-0.52). Each own interval misses the other's estimate, yet the difference,
		// ln(0.46 / 0.40) = 0.140, lies within sqrt(0.100² + 0.119²) = 0.155: consistent with one truth.
		// Platform: 0.40 (0.38-0.42) and 0.50 (0.48-0.52): 0.223 against sqrt(0.050² + 0.040²) = 0.064: not.
		runs.put("run1", List.of(run(stated("jetty-loom", 0.40, 0.36, 0.44), stated("platform", 0.40, 0.38, 0.42))));
		runs.put("run2", List.of(run(stated("jetty-loom", 0.46, 0.41, 0.52), stated("platform", 0.50, 0.48, 0.52))));
		List<BetweenRuns> all = BetweenRuns.of(runs);
		BetweenRuns jetty = all.get(0);
		assertThat(jetty.misses()).hasSize(2);
		assertThat(jetty.pairs()).singleElement().satisfies(pair -> {
			assertThat(pair.logDifference()).isCloseTo(Math.log(0.46 / 0.40), within(1e-12));
			assertThat(pair.halfWidth()).isCloseTo(Math.hypot(Math.log(0.44 / 0.36) / 2, Math.log(0.52 / 0.41) / 2), within(1e-12));
			assertThat(pair.consistent()).isTrue();
		});
		assertThat(jetty.reproduced()).isTrue();
		assertThat(jetty.describe()).contains("; reproduced: consistent by the interval of their difference in 1 of 1 pairs of runs");
		BetweenRuns platform = all.get(1);
		assertThat(platform.pairs()).singleElement().satisfies(pair -> assertThat(pair.consistent()).isFalse());
		assertThat(platform.reproduced()).isFalse();
		assertThat(platform.describe()).contains("; not reproduced: consistent by the interval of their difference in 0 of 1 pairs of runs (run2 against run1: +25.0% ± 6.6%)");
		// One run, or runs without intervals of their own: never "reproduced".
		Map<String, List<SearchSummary>> one = new LinkedHashMap<>();
		one.put("run1", List.of(run(stated("jetty-loom", 0.40, 0.36, 0.44))));
		assertThat(BetweenRuns.of(one).get(0).reproduced()).isFalse();
	}

	@Test
	void theRunsSpreadSaysHowNarrowOneRunsIntervalCanHonestlyBe() {
		Map<String, List<SearchSummary>> runs = new LinkedHashMap<>();
		runs.put("run1", List.of(run(ratio("tomcat-loom", "webflux", 0.40, 0.41))));
		runs.put("run2", List.of(run(ratio("tomcat-loom", "webflux", 0.46, 0.45))));
		assertThat(BetweenRuns.of(runs).get(0).between()).as("two runs: too few for a spread").isNull();
		runs.put("run3", List.of(run(ratio("tomcat-loom", "webflux", 0.37, 0.38))));
		BetweenRuns b = BetweenRuns.of(runs).get(0);
		double[] logs = b.perRun().stream().mapToDouble(Math::log).toArray();
		double mean = Arrays.stream(logs).average().orElseThrow();
		double ss = Arrays.stream(logs).map(x -> (x - mean) * (x - mean)).sum();
		BetweenRuns.Spread spread = b.between();
		assertThat(spread.sd()).isCloseTo(Math.sqrt(ss / 2), within(1e-12));
		// χ² with 2 degrees of freedom: 7.3778 at 97.5%, 0.050636 at 2.5%.
		assertThat(spread.sdLow()).isCloseTo(Math.sqrt(ss / 7.377759), within(1e-5));
		assertThat(spread.sdHigh()).isCloseTo(Math.sqrt(ss / 0.0506356), within(1e-4));
		assertThat(spread.narrowestHalfWidthPercent(spread.sd())).isCloseTo(100 * (Math.exp(1.959964 * spread.sd()) - 1), within(1e-9));
		assertThat(b.describe()).contains(String.format(java.util.Locale.ROOT, "the runs spread ±%.1f%%", 100 * spread.sd()))
			.contains("one run's 95% interval holds the long-run ratio 95% of the time only from ±");
	}

	@Test
	void theDifferenceYardstickHoldsTwoRightRunsAbout95PercentOfTheTimeWhereEachOthersIntervalHoldsAbout83() {
		// Two honest runs of one truth, each with a right 95% interval of equal width: the difference's interval holds 0 in
		// about 95% of pairs; one run's interval holds the other's estimate in about 83% (the yardstick that cried wolf).
		java.util.Random random = new java.util.Random(11);
		double se = 0.08;
		double h = 1.959964 * se;
		int consistent = 0;
		int held = 0;
		int n = 20_000;
		for (int i = 0; i < n; i++) {
			double a = Math.exp(Math.log(0.5) + se * random.nextGaussian());
			double b = Math.exp(Math.log(0.5) + se * random.nextGaussian());
			Map<String, List<SearchSummary>> runs = new LinkedHashMap<>();
			runs.put("a", List.of(run(stated("x", a, a * Math.exp(-h), a * Math.exp(h)))));
			runs.put("b", List.of(run(stated("x", b, b * Math.exp(-h), b * Math.exp(h)))));
			BetweenRuns x = BetweenRuns.of(runs).get(0);
			consistent += x.reproduced() ? 1 : 0;
			held += (b >= a * Math.exp(-h) && b <= a * Math.exp(h)) ? 1 : 0;
		}
		assertThat(100.0 * consistent / n).as("the difference's interval").isBetween(94.0, 96.0);
		assertThat(100.0 * held / n).as("one run's interval holding the other's estimate").isBetween(81.0, 85.0);
	}

}
