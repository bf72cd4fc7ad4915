package lab.report;

import java.util.List;

import lab.analyse.TestRows;
import lab.analyse.judge.Figures;
import lab.analyse.judge.LevelResult;
import lab.layout.Level;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;

import static org.assertj.core.api.Assertions.assertThat;

/** The chart of where a variant's requests spent their mean time: one stacked bar per level, by load. */
class BreakdownChartTests {

	private static LevelResult row(int users, double before, double outside, double call) {
		return TestRows.row("app-tomcat-loom", new Level.Closed(users))
			.set(Figures.BEFORE_SERVER_MS, before, Figures.OUTSIDE_CALL_MS, outside, Figures.CLIENT_MEAN_MS, call)
			.build();
	}

	@Test
	void eachLevelIsABarOfItsThreePartsInLoadOrderAndARunWithoutTimersHasNone() {
		CategoryChart chart = Charts.breakdown("app-tomcat-loom", List.of(row(1_500, 40, 300, 1_600), row(1_000, 2, 28, 530), row(200, -3, 1, 501)));
		assertThat(chart.getTitle()).isEqualTo("Where the time went: app-tomcat-loom");
		assertThat(chart.getSeriesMap().keySet()).containsExactly("before the server's timer", "in the service, outside the call",
				"the downstream call");
		CategorySeries call = chart.getSeriesMap().get("the downstream call");
		assertThat(call.getXData().stream().map(String::valueOf).toList()).containsExactly("200", "1000", "1500");
		assertThat(call.getYData().stream().map(Number::doubleValue).toList()).containsExactly(501.0, 530.0, 1_600.0);
		// A part a few ms below zero is drawn as zero.
		assertThat(chart.getSeriesMap().get("before the server's timer").getYData().stream().map(Number::doubleValue).toList())
			.containsExactly(0.0, 2.0, 40.0);

		LevelResult lean = TestRows.row("app-tomcat-loom", new Level.Closed(1_000)).set(Figures.BEFORE_SERVER_MS, Double.NaN).build();
		assertThat(Charts.breakdown("app-tomcat-loom", List.of(lean))).as("observe lean: no per-request timers").isNull();
	}

}
