package lab.report;

import java.util.List;
import java.util.Map;

import lab.analyse.search.BetweenRunsTests;
import lab.analyse.search.EarlierRun;
import lab.analyse.search.SearchRecord;
import lab.analyse.search.SearchSettings;
import lab.analyse.search.SearchSummary;
import lab.layout.LatencyTarget;
import lab.layout.TuneAnswer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ForestPlotTests {

	@Test
	void runsStandBesideEachOtherAndARunAgainstAnotherBaselineIsLeftOut() {
		SearchSummary first = BetweenRunsTests.run(BetweenRunsTests.ratio("app-tomcat-loom", "app-webflux", 0.40, 0.44),
				BetweenRunsTests.ratio("app-tomcat-platform", "app-webflux", 0.13, 0.135));
		SearchSummary second = BetweenRunsTests.run(BetweenRunsTests.ratio("app-tomcat-loom", "app-webflux", 0.37, 0.41));
		SearchSummary other = BetweenRunsTests.run(BetweenRunsTests.ratio("app-webflux", "app-tomcat-loom", 2.4, 2.6));
		var chart = ForestPlot.ofRuns(java.util.Arrays.asList(ForestPlot.RunRatios.of("G1", first), ForestPlot.RunRatios.of("G2", second),
				ForestPlot.RunRatios.of("none", null), ForestPlot.RunRatios.of("other", other)));
		// A bar per run and variant (three), a legend entry per run drawn (two), and the baseline's 1.
		assertThat(chart.getSeriesMap().keySet()).containsExactly("G1 · app-tomcat-loom", "G2 · app-tomcat-loom", "G1 · app-tomcat-platform", "G1", "G2",
				"app-webflux (1)");
		assertThat(chart.getTitle()).contains("× app-webflux");
		assertThat(ForestPlot.ofRuns(java.util.Collections.singletonList(ForestPlot.RunRatios.of("none", null)))).isNull();
	}

	@Test
	void aRunsReportDrawsItBesideTheHostsEarlierRunsOfTheSameSearch() throws Exception {
		Map<String, TuneAnswer.Bounds> ratios = new java.util.LinkedHashMap<>();
		ratios.put("app-tomcat-loom", new TuneAnswer.Bounds(0.426, 0.324, 0.548, 5, 2, 6.1, "POOLED"));
		ratios.put("app-tomcat-platform", new TuneAnswer.Bounds(0.142, 0.142, 0.142, 1, 1, 0, "PRIOR"));
		EarlierRun before = new EarlierRun("2026-11-30T07:50:28.363Z", "0298234780cae2a71ae57ea1863c4bfd56c23408", "app-webflux", ratios);
		assertThat(before.name()).isEqualTo("earlier: 2026-11-30 07:50, 0298234");
		SearchSettings settings = new SearchSettings(1000, 16_000, 50, 4, 5, 10, 2, 1, LatencyTarget.DEFAULT, 500).withEarlier(List.of(before));
		SearchRecord record = new SearchRecord("default", LatencyTarget.DEFAULT, "app-webflux", null, List.of("app-webflux", "app-tomcat-loom"), settings,
				List.of(), List.of(), Map.of(), Map.of(), null);
		SearchSummary now = new SearchSummary(record, List.of(), List.of(BetweenRunsTests.ratio("app-tomcat-loom", "app-webflux", 0.40, 0.44)), List.of());
		assertThat(ForestPlot.withEarlier(now)).isNotNull();
		// Kept in the search's record, so a re-render draws the same: written and read back whole.
		SearchRecord read = SearchRecord.of(lab.json.Json.MAPPER.readTree(lab.json.Json.MAPPER.writeValueAsString(record)));
		assertThat(read.settings().earlier()).containsExactly(before);
		var runs = java.util.Arrays.asList(ForestPlot.RunRatios.of(before), ForestPlot.RunRatios.of("this run", now));
		// The earlier run's interval and its estimate alone (recorded before the history kept intervals), then this run's.
		assertThat(ForestPlot.ofRuns(runs).getSeriesMap().keySet()).containsExactly("earlier: 2026-11-30 07:50, 0298234 · app-tomcat-loom",
				"this run · app-tomcat-loom", "earlier: 2026-11-30 07:50, 0298234 · app-tomcat-platform", "earlier: 2026-11-30 07:50, 0298234", "this run",
				"app-webflux (1)");
	}

}
