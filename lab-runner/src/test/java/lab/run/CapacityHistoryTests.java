package lab.run;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.layout.LatencyTarget;

import lab.layout.RunDir;
import lab.plan.VariancePrior;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** Where the next search on this host starts: the last crossings per scenario, arm, target and variant, with their commit. */
class CapacityHistoryTests {

	static final LatencyTarget T1000 = LatencyTarget.parse("p99<=1000ms,errors<=1%");


	@TempDir
	Path results;

	@Test
	void theLastRunsCrossingsOnThisHostAreWhereTheNextBracketStarts() throws Exception {
		CapacityHistory history = new CapacityHistory(this.results);
		assertThat(history.last("capacity", "default", T1000)).as("no run yet").isEmpty();
		Map<String, Double> first = new LinkedHashMap<>();
		first.put("app-webflux", 3_088.4);
		first.put("app-tomcat-loom", 1_064.0);
		history.record("capacity", "default", T1000, first, "853f9f7");
		history.record("capacity", "default", T1000, Map.of("app-webflux", 3_244.0), "0ffeb39");
		Map<String, CapacityHistory.Crossing> last = history.last("capacity", "default", T1000);
		// The later run replaced its variant's crossing; the other variant's stands, with the commit that measured it.
		assertThat(last.get("app-webflux").users()).isEqualTo(3_244.0);
		assertThat(last.get("app-webflux").commit()).isEqualTo("0ffeb39");
		assertThat(last.get("app-tomcat-loom").users()).isEqualTo(1_064.0);
		// Another scenario, arm or target starts afresh.
		assertThat(history.last("capacity-map", "default", T1000)).isEmpty();
		assertThat(history.last("capacity", "work100", T1000)).isEmpty();
		assertThat(history.last("capacity", "default", LatencyTarget.parse("p99<=500ms,errors<=0.1%"))).isEmpty();
		// A file that cannot be read is no history, never an error: the bracket then starts from the scenario's load.
		Files.writeString(this.results.resolve(RunDir.CAPACITY_HISTORY), "{not json");
		assertThat(new CapacityHistory(this.results).last("capacity", "default", T1000)).isEmpty();
	}

	@Test
	void aHostWithNoCrossingsOfItsOwnStartsFromTheOnesTheLabShipsAndItsOwnComeFirst() throws Exception {
		CapacityHistory history = new CapacityHistory(this.results);
		LatencyTarget target = LatencyTarget.DEFAULT;
		Map<String, CapacityHistory.Crossing> shipped = history.last("capacity", "default", target);
		// Every variant of the lab, at what this project measured (the median of three runs), marked as shipped.
		assertThat(shipped).containsOnlyKeys("app-webflux", "app-webflux-loom", "app-jetty-loom", "app-tomcat-loom", "app-tomcat-platform");
		assertThat(shipped.values()).allSatisfy(c -> assertThat(CapacityHistory.shipped(c)).isTrue());
		assertThat(shipped.get("app-tomcat-platform").users()).isBetween(300.0, 500.0);
		// The host's own crossing, once it has one, comes first; the others stay the shipped ones.
		history.record("capacity", "default", target, Map.of("app-webflux", 2_130.0), "abc1234");
		Map<String, CapacityHistory.Crossing> mixed = history.last("capacity", "default", target);
		assertThat(mixed.get("app-webflux").users()).isEqualTo(2_130.0);
		assertThat(CapacityHistory.shipped(mixed.get("app-webflux"))).isFalse();
		assertThat(CapacityHistory.shipped(mixed.get("app-tomcat-loom"))).isTrue();
		// Only for the search it was measured in: another scenario, arm or target has none.
		assertThat(history.last("capacity-map", "default", target)).isEmpty();
		assertThat(history.last("capacity", "tuned", target)).isEmpty();
	}

	@Test
	void onAHostOfAnotherCpuReferenceTheShippedCrossingsTheCoreOrHeapBoundStartScaledAndThePoolsDoNot() {
		CapacityHistory history = new CapacityHistory(this.results);
		Map<String, CapacityHistory.Crossing> shipped = history.last("capacity", "default", LatencyTarget.DEFAULT);
		List<String> labels = List.of("app-webflux", "app-tomcat-platform");
		// A host at 80 ms against the 55.6 ms the shipped runs timed (this project's machine on 2026-11-29 against its
		// earlier runs): WebFlux, bound by the heap and the core, from 2,540 × 55.6 / 80 = 1,765 (three figures: 1,770);
		// the platform pool, bound by its thread pool, from its 381 as measured.
		BracketStarts slower = BracketStarts.of(shipped, labels, label -> label, 80.0);
		assertThat(slower.users()).containsEntry("app-webflux", 1_770).containsEntry("app-tomcat-platform", 381);
		assertThat(slower.lines()).singleElement().asString()
			.contains("app-webflux scaled to this host's CPU reference (80.0 ms against 55.6 ms there: the core or the heap bound them)")
			.contains("steps of 1.5: app-webflux 1770, app-tomcat-platform 381");
		// Not timed: as shipped, and said as before.
		BracketStarts untimed = BracketStarts.of(shipped, labels, label -> label, Double.NaN);
		assertThat(untimed.users()).containsEntry("app-webflux", 2_540);
		assertThat(untimed.lines().get(0)).doesNotContain("scaled");
	}


	@Test
	void aVariantsSpreadOnThisHostUpdatesTheShippedPriorFromThreeRunsOnAndTheHistoryKeepsTenRunsOfEach() throws Exception {
		CapacityHistory history = new CapacityHistory(this.results);
		LatencyTarget target = LatencyTarget.DEFAULT;
		VariancePrior shipped = VariancePrior.SHIPPED;
		history.record("capacity", "default", target, Map.of("app-webflux", 2_000.0, "app-tomcat-platform", 380.0), "a");
		history.record("capacity", "default", target, Map.of("app-webflux", 2_400.0, "app-tomcat-platform", 381.0), "b");
		assertThat(history.prior("capacity", "default", target, shipped)).as("two runs are too few").isSameAs(shipped);
		history.record("capacity", "default", target, Map.of("app-webflux", 2_200.0), "c");
		VariancePrior updated = history.prior("capacity", "default", target, shipped);
		// app-webflux: logs of 2,000, 2,400, 2,200, their variance 0.0083160 (2 df); its JVM level as the shipped figures
		// were made, 2 × (0.0083160 - its run level 0.056²) = 0.0103601, pooled with the shipped 2 × (0.091² - 0.056²) =
		// 0.010290 at 4 df: (4 × 0.010290 + 2 × 0.0103601) / 6 = 0.0103134 (10.2%).
		double[] logs = { Math.log(2_000), Math.log(2_400), Math.log(2_200) };
		double mean = (logs[0] + logs[1] + logs[2]) / 3;
		double between = ((logs[0] - mean) * (logs[0] - mean) + (logs[1] - mean) * (logs[1] - mean) + (logs[2] - mean) * (logs[2] - mean)) / 2;
		double host = 2 * (between - 0.056 * 0.056);
		double shippedJvm = 2 * (0.091 * 0.091 - 0.056 * 0.056);
		assertThat(shipped.variance("app-webflux")).isCloseTo(shippedJvm, org.assertj.core.data.Offset.offset(1e-12));
		assertThat(updated.variance("app-webflux")).isCloseTo((4 * shippedJvm + 2 * host) / 6, org.assertj.core.data.Offset.offset(1e-12));
		assertThat(updated.about()).contains("updated by this host's runs: app-webflux 10.2% (3 runs here)");
		// The platform pool has two runs here: its shipped spread stands.
		assertThat(updated.variance("app-tomcat-platform")).isEqualTo(shipped.variance("app-tomcat-platform"));
		// The latest crossing is still where the next bracket starts; ten runs of each are kept.
		assertThat(history.last("capacity", "default", target).get("app-webflux").users()).isEqualTo(2_200.0);
		for (int run = 0; run < 12; run++) {
			history.record("capacity", "default", target, Map.of("app-webflux", 2_000.0 + run), "r" + run);
		}
		assertThat(Files.readString(this.results.resolve(RunDir.CAPACITY_HISTORY))).doesNotContain("\"r1\"").contains("\"r2\"").contains("\"r11\"");
		assertThat(history.last("capacity", "default", target).get("app-webflux").users()).isEqualTo(2_011.0);
	}


	@Test
	void earlierRunsAreTheHostsRatiosWithTheirIntervalsOrTheirCrossingsAlone() throws Exception {
		CapacityHistory history = new CapacityHistory(this.results);
		Map<String, Double> old = new LinkedHashMap<>();
		old.put("app-webflux", 2_400.0);
		old.put("app-tomcat-loom", 1_000.0);
		// A run recorded before the history kept ratios, then one with them, then one of another target.
		history.record("capacity", "default", T1000, old, "aaaaaaa");
		Thread.sleep(2);
		Map<String, Double> next = new LinkedHashMap<>();
		next.put("app-webflux", 2_700.0);
		next.put("app-tomcat-loom", 1_150.0);
		history.record("capacity", "default", T1000, next, "bbbbbbb", "app-webflux",
				Map.of("app-tomcat-loom", new lab.analyse.search.Interval(0.426, 0.324, 0.548, 5, 2, 6.1, lab.analyse.search.Interval.JvmLevel.POOLED)));
		Thread.sleep(2);
		history.record("capacity", "default", LatencyTarget.parse("p99<=200ms,errors<=1%"), next, "ccccccc");
		List<lab.analyse.search.EarlierRun> earlier = history.earlier("capacity", "default", T1000, "app-webflux", 4);
		assertThat(earlier).extracting(lab.analyse.search.EarlierRun::commit).containsExactly("aaaaaaa", "bbbbbbb");
		// The older: the ratio of its crossings alone, no interval.
		assertThat(earlier.get(0).ratios().get("app-tomcat-loom").estimate()).isCloseTo(1_000.0 / 2_400.0, org.assertj.core.api.Assertions.within(1e-9));
		assertThat(earlier.get(0).ratios().get("app-tomcat-loom").df()).isZero();
		// The newer: the interval its run stated.
		assertThat(earlier.get(1).ratios().get("app-tomcat-loom").low()).isEqualTo(0.324);
		assertThat(history.earlier("capacity", "default", T1000, "app-webflux", 1)).extracting(lab.analyse.search.EarlierRun::commit).containsExactly("bbbbbbb");
		// Against a baseline those runs did not have: none.
		assertThat(history.earlier("capacity", "default", T1000, "app-jetty-loom", 4)).isEmpty();
	}

}
