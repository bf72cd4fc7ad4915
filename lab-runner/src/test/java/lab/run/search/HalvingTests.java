package lab.run.search;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import lab.analyse.search.Interval;
import lab.analyse.search.SearchSettings;
import lab.run.search.SyntheticLab.Shape;
import lab.run.search.SyntheticLab.Truth;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The halving schedule on a synthetic lab with known capacities ({@link SyntheticLab}, the noise measured here): eight
 * arms shaped like a pool-size and virtual-thread study (the best two 5% apart, the rest well below), 1,000 seeded
 * studies of three steps in 60 minutes. The true best must survive to the answer in at least 95% of them, as the
 * intervals' stated 95% promises.
 */
class HalvingTests {

	static final List<Truth> ARMS = List.of(new Truth("vt-off-pool5", 150, Shape.SHARP), new Truth("vt-on-pool5", 250, Shape.MEDIUM),
			new Truth("vt-off-pool10", 290, Shape.SHARP), new Truth("vt-on-pool10", 480, Shape.MEDIUM), new Truth("vt-off-pool20", 560, Shape.SHARP),
			new Truth("vt-on-pool20", 950, Shape.MEDIUM), new Truth("vt-off-pool50", 700, Shape.SHARP), new Truth("vt-on-pool50", 1000, Shape.FLAT));

	static final String BEST = "vt-on-pool50";

	/** Step k: more rounds and JVMs for fewer arms; each step a third of the hour. */
	static SearchSettings settings(int step, long seed) {
		int[] rounds = { 2, 4, 6 };
		int[] jvms = { 1, 2, 2 };
		return new SearchSettings(200, 16_000, 50, rounds[step], 5, 10, 2, seed * 31 + step, 1000, 500, jvms[step], 2, Map.of());
	}

	@Test
	void theTrueBestSurvivesAtLeast95PercentOfSeededStudies() throws Exception {
		int bestDropped = 0;
		int bestNamed = 0;
		int resolved = 0;
		Map<Integer, Integer> steps = new LinkedHashMap<>();
		double[] survivors = new double[4];
		for (int study = 0; study < 1000; study++) {
			long seed = study;
			SyntheticLab first = new SyntheticLab(ARMS, seed, 20 * 60);
			Halving halving = new Halving(ARMS.stream().map(Truth::name).toList(), step -> settings(step, seed), 3);
			Halving.Answer answer = halving.run((step, entries) -> (step == 0) ? first : first.again(20 * 60));
			if (answer.beaten().containsKey(BEST)) {
				bestDropped++;
			}
			if (answer.best().equals(BEST)) {
				bestNamed++;
			}
			if (answer.withinNoise().isEmpty()) {
				resolved++;
			}
			steps.merge(answer.steps().size(), 1, Integer::sum);
			for (Halving.Step step : answer.steps()) {
				survivors[step.index()] += step.entries().size() / 1000.0;
			}
		}
		String table = String.format(Locale.ROOT, "1,000 studies: true best dropped %d, named best %d, one arm left or leading every other %d; "
				+ "steps %s; arms per step (mean) %.1f, %.1f, %.1f", bestDropped, bestNamed, resolved, steps, survivors[0], survivors[1], survivors[2]);
		System.out.println(table);
		assertThat(bestDropped).as(table).isLessThanOrEqualTo(50);
		// The runner-up is 5% below: often within noise, but the schedule must still narrow the field.
		assertThat(survivors[2]).as(table).isLessThan(ARMS.size());
	}

	@Test
	void anArmIsDroppedOnlyWhenItsIntervalLiesWhollyBelowTheLeaders() {
		Interval leader = new Interval(1000, 950, 1050, 6, 2, 4, Interval.JvmLevel.values()[0]);
		assertThat(new Interval(800, 700, 940, 6, 2, 4, Interval.JvmLevel.values()[0]).whollyBelow(leader)).isTrue();
		assertThat(new Interval(900, 800, 960, 6, 2, 4, Interval.JvmLevel.values()[0]).whollyBelow(leader)).as("overlaps").isFalse();
		assertThat(Interval.NONE.whollyBelow(leader)).as("no interval: kept").isFalse();
	}

}
