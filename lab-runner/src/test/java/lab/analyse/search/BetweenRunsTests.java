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
	}

}
