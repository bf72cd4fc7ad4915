package lab.report;

import java.util.List;
import java.util.Map;

import lab.analyse.search.Interval;
import lab.analyse.search.TuneSummary;
import lab.layout.LatencyTarget;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The tune answer in words and as table rows, from a synthetic tune summary. */
class TuneSectionTests {

	private static TuneSummary.Arm arm(String label, double estimate, double low, double high, TuneSummary.Standing standing, boolean frontRss) {
		return new TuneSummary.Arm(label, Map.of("heap", label.substring(0, 2)), new Interval(estimate, low, high, 5, 2, 4, Interval.JvmLevel.POOLED), 3,
				standing, "the core (99% busy)", 800, Double.NaN, frontRss, false);
	}

	@Test
	void theAnswerNamesTheBestTheArmsWithinNoiseAndTheBeatenWithTheirShare() {
		TuneSummary tune = new TuneSummary(LatencyTarget.parse("p99<=2000ms,errors<=0.1%"), "68-256b", List.of(
				arm("68-256b", 3460, 3050, 3920, TuneSummary.Standing.BEST, true),
				arm("25-256b", 2860, 2220, 3250, TuneSummary.Standing.WITHIN_NOISE, true),
				arm("25-8kb", 2110, 1550, 2880, TuneSummary.Standing.BEATEN, false)), List.of(), false, Map.of());
		String answer = TuneSection.answer(tune, "users");
		assertThat(answer).startsWith("Best within p99<=2000ms,errors<=0.1%: 68-256b, 3,460 (3,050-3,920, 2 JVMs, 5 rounds) users.")
			.contains("Within noise of it (intervals overlap): 25-256b.")
			.contains("It beats 25-8kb 2,110 (1,550-2,880, 2 JVMs, 5 rounds) (0.61× the best).")
			.contains("Front of capacity against RSS: 68-256b, 25-256b.")
			.doesNotContain("against connections");
		Map<String, Object> scope = TuneSection.scope(tune, "users");
		@SuppressWarnings("unchecked")
		List<Map<String, Object>> rows = (List<Map<String, Object>>) scope.get("arms");
		assertThat(rows).extracting(row -> row.get("front")).containsExactly("RSS", "RSS", "-");
		assertThat(rows.get(0)).containsEntry("connections", "-").containsEntry("values", "heap=68");
		assertThat(TuneSection.scope(null, "users")).isNull();
	}

	@Test
	void withoutAMeasuredCapacityNoBestIsNamedAndEachArmSaysWhy() {
		Map<String, String> why = new java.util.LinkedHashMap<>();
		why.put("petclinic-rest-true-4", "INVALID twice at 25, never a bound");
		why.put("petclinic-rest-false-4", "INVALID twice at 25, never a bound");
		TuneSummary none = new TuneSummary(LatencyTarget.parse("p99<=300ms,errors<=0.1%"), "", List.of(), List.of(), false, why);
		assertThat(none.named()).isFalse();
		assertThat(TuneSection.answer(none, "users")).isEqualTo("No best named: no arm's capacity within p99<=300ms,errors<=0.1% was found. "
				+ "petclinic-rest-true-4: INVALID twice at 25, never a bound; petclinic-rest-false-4: INVALID twice at 25, never a bound.")
			.doesNotContain("Best within").doesNotContain("leads");
		TuneSummary stopped = new TuneSummary(LatencyTarget.parse("p99<=200ms,errors<=0.1%"), "", List.of(), List.of(), true, Map.of("pg-orders-true-5", "the run was interrupted in step 1"));
		assertThat(TuneSection.answer(stopped, "users")).startsWith("No best named: the run was interrupted before the study ended.");
	}

}
