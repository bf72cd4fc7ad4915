package lab.run.search;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import lab.analyse.search.Interval;
import lab.analyse.search.SearchSettings;
import lab.analyse.search.SearchSummary;
import lab.layout.LatencyTarget;
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

	/** A study's steps searched turn by turn, as the runner searches them: never a whole step at once. */
	abstract static class TurnByTurn implements Halving.Steps {

		@Override
		public InterleavedSearch.Prober prober(int step, List<String> entries) {
			throw new AssertionError("searched turn by turn");
		}

		@Override
		public abstract InterleavedSearch.Prober turn(int step, int turn, int turns, List<String> entries, InterleavedSearch search);

	}

	/** Step k: more rounds and JVMs for fewer arms; each step a third of the hour. */
	static SearchSettings settings(int step, long seed) {
		int[] rounds = { 2, 4, 6 };
		int[] jvms = { 1, 2, 2 };
		return new SearchSettings(200, 16_000, 50, rounds[step], 5, 10, 2, seed * 31 + step, LatencyTarget.DEFAULT, 500, jvms[step], 2, Map.of());
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
		// How often the study names the true best outright, its runner-up 5% below: 699 of the 1,000 seeded studies (the seeds
		// fix it; 680 when arms were dropped by unpaired capacity intervals, which dropped the true best 4 times in 1,000 and
		// left one arm or a clear leader in 33 studies, against 17 and 114 paired: nearer the 5% the intervals state); the
		// rest end with the best within noise of the one named.
		assertThat(bestNamed).as(table).isGreaterThanOrEqualTo(600);
		// The runner-up is 5% below: often within noise, but the schedule must still narrow the field.
		assertThat(survivors[2]).as(table).isLessThan(ARMS.size());
	}

	@Test
	void armsInTurnsAreEachSearchedInTheirTurnAndTheTrueBestStillSurvives() throws Exception {
		// Four arms fit at once: step 1's eight run in two turns, each turn a search of its own with its share of the step's
		// time and the host's drift afresh; the arms are judged together after the last turn.
		java.util.function.Function<List<String>, List<List<String>>> fourAtOnce = survivors -> {
			List<List<String>> turns = new java.util.ArrayList<>();
			for (int from = 0; from < survivors.size(); from += 4) {
				turns.add(survivors.subList(from, Math.min(from + 4, survivors.size())));
			}
			return turns;
		};
		int bestDropped = 0;
		for (int study = 0; study < 300; study++) {
			long seed = study;
			SyntheticLab lab = new SyntheticLab(ARMS, seed, 10 * 60);
			List<List<String>> seen = new java.util.ArrayList<>();
			Halving halving = new Halving(ARMS.stream().map(Truth::name).toList(), step -> settings(step, seed), 3, fourAtOnce);
			Halving.Answer answer = halving.run(new TurnByTurn() {

				@Override
				public InterleavedSearch.Prober turn(int step, int turn, int turns, List<String> entries, InterleavedSearch search) {
					assertThat(search.entries()).isEqualTo(entries);
					seen.add(entries);
					return (step == 0 && turn == 0) ? lab : lab.again(20 * 60.0 / turns);
				}

			});
			assertThat(seen.get(0)).as("step 1, turn 1").containsExactly("vt-off-pool5", "vt-on-pool5", "vt-off-pool10", "vt-on-pool10");
			assertThat(seen.get(1)).as("step 1, turn 2").containsExactly("vt-off-pool20", "vt-on-pool20", "vt-off-pool50", "vt-on-pool50");
			assertThat(answer.steps().get(0).turns()).hasSize(2);
			assertThat(answer.steps().get(0).entries()).as("every arm searched in step 1").hasSize(ARMS.size());
			if (answer.beaten().containsKey(BEST)) {
				bestDropped++;
			}
		}
		System.out.println("300 studies in turns of four arms: true best dropped " + bestDropped);
		assertThat(bestDropped).as("true best dropped in 300 studies in turns").isLessThanOrEqualTo(15);
	}

	@Test
	void inGroupsAnArmIsDroppedOnlyByItsOwnGroupsLeaderAndEachGroupsBestIsNamed() throws Exception {
		// Two models, four pools each: without groups every vt-off arm would fall to vt-on-pool50 (1,000 against at most
		// 700); in groups each model keeps its own best (vt-off-pool50 leads its group by 25%, vt-on-pool50 its by 5%).
		java.util.function.Function<String, String> model = arm -> arm.substring(0, arm.indexOf("-pool"));
		int studies = 200;
		int offNamed = 0;
		int offDropped = 0;
		int onDropped = 0;
		for (int study = 0; study < studies; study++) {
			long seed = study;
			SyntheticLab first = new SyntheticLab(ARMS, seed, 20 * 60);
			Halving halving = new Halving(ARMS.stream().map(Truth::name).toList(), step -> settings(step, seed), 3, survivors -> List.of(survivors), model);
			List<Halving.Answer> answers = halving.runGroups((step, entries) -> (step == 0) ? first : first.again(20 * 60));
			assertThat(answers).extracting(Halving.Answer::group).containsExactly("vt-off", "vt-on");
			for (Halving.Answer answer : answers) {
				assertThat(answer.beaten().keySet()).as("beaten only within its group").allSatisfy(arm -> assertThat(model.apply(arm)).isEqualTo(answer.group()));
				assertThat(answer.withinNoise()).allSatisfy(arm -> assertThat(model.apply(arm)).isEqualTo(answer.group()));
				if (answer.named()) {
					assertThat(model.apply(answer.best())).isEqualTo(answer.group());
				}
			}
			offNamed += "vt-off-pool50".equals(answers.get(0).best()) ? 1 : 0;
			offDropped += answers.get(0).beaten().containsKey("vt-off-pool50") ? 1 : 0;
			onDropped += answers.get(1).beaten().containsKey(BEST) ? 1 : 0;
			// A group with one arm left leaves the study: a later step searches only the groups still open.
			List<Halving.Step> steps = answers.get(0).steps();
			for (int i = 1; i < steps.size(); i++) {
				Map<String, Long> left = new LinkedHashMap<>();
				for (String arm : steps.get(i - 1).entries()) {
					if (!steps.get(i - 1).dropped().contains(arm)) {
						left.merge(model.apply(arm), 1L, Long::sum);
					}
				}
				assertThat(steps.get(i).entries()).as("step %d searches open groups only: %s", i + 1, left)
					.allSatisfy(arm -> assertThat(left.get(model.apply(arm))).isGreaterThan(1L));
			}
		}
		String table = String.format(Locale.ROOT, "%d studies in two groups: vt-off-pool50 named %d, dropped %d; vt-on-pool50 dropped %d", studies, offNamed,
				offDropped, onDropped);
		System.out.println(table);
		assertThat(offDropped).as(table).isLessThanOrEqualTo(studies / 20);
		assertThat(onDropped).as(table).isLessThanOrEqualTo(studies / 20);
		assertThat(offNamed).as(table).isGreaterThanOrEqualTo(studies * 3 / 4);
	}

	@Test
	void aGroupOfOneArmIsSearchedInTheFirstStepAndItsBestNamedWithItsCapacity() throws Exception {
		// vt-on at three pools, vt-off at one: vt-off-pool50 has no rival in its group, and is measured all the same.
		List<Truth> arms = List.of(ARMS.get(3), ARMS.get(5), ARMS.get(6), ARMS.get(7));
		java.util.function.Function<String, String> model = arm -> arm.substring(0, arm.indexOf("-pool"));
		SyntheticLab lab = new SyntheticLab(arms, 11, 20 * 60);
		Halving halving = new Halving(arms.stream().map(Truth::name).toList(), step -> settings(step, 11), 3, survivors -> List.of(survivors), model);
		List<Halving.Answer> answers = halving.runGroups((step, entries) -> (step == 0) ? lab : lab.again(20 * 60));
		Halving.Answer alone = answers.stream().filter(answer -> answer.group().equals("vt-off")).findFirst().orElseThrow();
		assertThat(alone.steps().get(0).entries()).contains("vt-off-pool50");
		assertThat(alone.best()).isEqualTo("vt-off-pool50");
		assertThat(alone.capacity().estimate()).as("its capacity, measured (700 in truth)").isBetween(400.0, 1000.0);
		// Searched once: a later step searches only the group with rivals left.
		for (Halving.Step step : alone.steps().subList(1, alone.steps().size())) {
			assertThat(step.entries()).doesNotContain("vt-off-pool50");
		}
	}

	@Test
	void anArmIsDroppedOnlyWhenItsIntervalLiesWhollyBelowTheLeaders() {
		Interval leader = new Interval(1000, 950, 1050, 6, 2, 4, Interval.JvmLevel.values()[0]);
		assertThat(new Interval(800, 700, 940, 6, 2, 4, Interval.JvmLevel.values()[0]).whollyBelow(leader)).isTrue();
		assertThat(new Interval(900, 800, 960, 6, 2, 4, Interval.JvmLevel.values()[0]).whollyBelow(leader)).as("overlaps").isFalse();
		assertThat(Interval.NONE.whollyBelow(leader)).as("no interval: kept").isFalse();
	}

	@Test
	void armsThatSharedRoundsAreJudgedByTheirPairedRatioOthersByTheirCapacities() {
		Interval.JvmLevel level = Interval.JvmLevel.values()[0];
		SearchSummary.EntryResult leader = new SearchSummary.EntryResult("a", null, null, List.of(), new Interval(1000, 850, 1180, 6, 2, 4, level), 0, null, "");
		SearchSummary.EntryResult arm = new SearchSummary.EntryResult("b", null, null, List.of(), new Interval(900, 760, 1060, 6, 2, 4, level), 0, null, "");
		// Their capacities overlap (the host's drift of each round widens both), while within rounds b stayed 8-12% below a.
		assertThat(arm.capacity().whollyBelow(leader.capacity())).isFalse();
		SearchSummary.Ratio bToA = new SearchSummary.Ratio("b", "a", List.of(0.9, 0.88, 0.92), new Interval(0.9, 0.86, 0.94, 6, 2, 4, level));
		assertThat(Halving.below(arm, leader, List.of(bToA))).as("paired: wholly below 1").isTrue();
		SearchSummary.Ratio aToB = new SearchSummary.Ratio("a", "b", List.of(1.11, 1.14, 1.09), new Interval(1.11, 1.06, 1.16, 6, 2, 4, level));
		assertThat(Halving.below(arm, leader, List.of(aToB))).as("the same pair named the other way round").isTrue();
		assertThat(Halving.below(leader, arm, List.of(aToB))).as("the leader is not below").isFalse();
		SearchSummary.Ratio holdsOne = new SearchSummary.Ratio("b", "a", List.of(0.9, 1.02, 0.8), new Interval(0.9, 0.75, 1.08, 6, 2, 4, level));
		assertThat(Halving.below(arm, leader, List.of(holdsOne))).as("paired interval holds 1: kept").isFalse();
		// Never in one round together (two turns): their capacities decide.
		SearchSummary.EntryResult low = new SearchSummary.EntryResult("c", null, null, List.of(), new Interval(600, 500, 700, 6, 2, 4, level), 0, null, "");
		assertThat(Halving.below(low, leader, List.of(bToA))).as("no pair: wholly below by capacity").isTrue();
		assertThat(Halving.below(arm, leader, List.of())).as("no pair: overlapping capacities kept").isFalse();
	}

	@Test
	void withEveryProbeInvalidNoBestIsNamedAndEachArmSaysWhy() throws Exception {
		List<Truth> four = ARMS.subList(4, 8);
		SyntheticLab lab = new SyntheticLab(four, 7, 20 * 60);
		lab.invalid = true;
		Halving halving = new Halving(four.stream().map(Truth::name).toList(), step -> settings(step, 7), 3);
		Halving.Answer answer = halving.run((step, entries) -> lab);
		assertThat(lab.probes).as("probes run").isPositive();
		assertThat(answer.named()).isFalse();
		assertThat(answer.best()).isNull();
		assertThat(answer.capacity()).isEqualTo(Interval.NONE);
		assertThat(answer.beaten()).as("nothing beaten without a measured leader").isEmpty();
		assertThat(answer.unplaced()).containsOnlyKeys(four.stream().map(Truth::name).toArray(String[]::new));
		assertThat(answer.unplaced().values()).allSatisfy(why -> assertThat(why).isNotBlank());
		assertThat(answer.interrupted()).isFalse();
	}

	@Test
	void anInterruptedStudyStopsAtItsStepAndNamesNoBest() throws Exception {
		SyntheticLab lab = new SyntheticLab(ARMS, 3, 20 * 60);
		java.util.concurrent.atomic.AtomicInteger turnsAsked = new java.util.concurrent.atomic.AtomicInteger();
		java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
		Halving halving = new Halving(ARMS.stream().map(Truth::name).toList(), step -> settings(step, 3), 3);
		Halving.Answer answer = halving.run(new TurnByTurn() {

			@Override
			public InterleavedSearch.Prober turn(int step, int turn, int turns, List<String> entries, InterleavedSearch search) {
				turnsAsked.incrementAndGet();
				// The person stops the run during step 1: its search goes on to its end here, as a probe's interruption would end it.
				stop.set(true);
				return lab;
			}

			@Override
			public boolean stopped() {
				return stop.get();
			}

		});
		assertThat(turnsAsked.get()).as("no step after the interrupted one").isEqualTo(1);
		assertThat(answer.steps()).hasSize(1);
		assertThat(answer.interrupted()).isTrue();
		assertThat(answer.named()).isFalse();
		assertThat(answer.beaten()).isEmpty();
		assertThat(answer.unplaced().values()).containsOnly("the run was interrupted in step 1");
	}

}
