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
	void aStudyOfGroupsNamesEachGroupsBestWithTheArmsWithinNoiseOfIt() {
		Interval wide = new Interval(400, 300, 520, 3, 1, 2, Interval.JvmLevel.PRIOR);
		List<TuneSummary.Arm> arms = List.of(
				new TuneSummary.Arm("set-loom-10", Map.of("pool", "10"), wide, 2, TuneSummary.Standing.WITHIN_NOISE, "", 300, 10, false, false, "loom"),
				new TuneSummary.Arm("set-loom-50", Map.of("pool", "50"), new Interval(450, 380, 530, 3, 1, 2, Interval.JvmLevel.PRIOR), 2,
						TuneSummary.Standing.BEST, "", 310, 50, false, false, "loom"),
				new TuneSummary.Arm("set-r2dbc-10", Map.of("pool", "10"), wide, 1, TuneSummary.Standing.UNPLACED, "", Double.NaN, 10, false, false, "r2dbc"));
		Map<String, String> bests = new java.util.LinkedHashMap<>();
		bests.put("loom", "set-loom-50");
		bests.put("r2dbc", "");
		Map<String, TuneSummary.Confirmation> again = Map.of("set-loom-50",
				new TuneSummary.Confirmation(new Interval(430, 350, 520, 3, 1, 2, Interval.JvmLevel.PRIOR), true));
		TuneSummary tune = new TuneSummary(LatencyTarget.parse("p99<=100ms,errors<=0.1%"), "", arms, List.of(), false,
				Map.of("set-r2dbc-10", "INVALID twice at 25, never a bound"), bests, again);
		assertThat(tune.named()).as("r2dbc named none: no answer a script may read as one").isFalse();
		assertThat(tune.unnamedGroups()).containsExactly("r2dbc");
		assertThat(TuneSection.answer(tune, "users")).isEqualTo("Best of each group within p99<=100ms,errors<=0.1%: loom: set-loom-50, 450 (380-530, 1 JVM, "
				+ "3 rounds) users (within noise of it: set-loom-10), confirmed on fresh JVMs: 430 (350-520, 1 JVM, 3 rounds) users; r2dbc: no best named. "
				+ "Without a capacity: set-r2dbc-10: INVALID twice at 25, never a bound.");
		// Without groups, a best searched again and not confirmed says so in a sentence of its own.
		TuneSummary one = new TuneSummary(LatencyTarget.parse("p99<=100ms,errors<=0.1%"), "set-loom-50", arms.subList(1, 2), List.of(), false, Map.of(),
				Map.of(), Map.of("set-loom-50", new TuneSummary.Confirmation(new Interval(250, 200, 300, 3, 1, 2, Interval.JvmLevel.PRIOR), false)));
		assertThat(TuneSection.answer(one, "users")).contains(" It leads every other arm beyond its interval. Not confirmed on fresh JVMs: 250 (200-300, "
				+ "1 JVM, 3 rounds) users (its interval there does not overlap the study's, or an arm of its group led it there).");
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
