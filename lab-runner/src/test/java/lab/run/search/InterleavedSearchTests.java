package lab.run.search;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntToDoubleFunction;

import lab.analyse.judge.LevelResult.Verdict;
import lab.analyse.search.Interval;
import lab.analyse.search.Round;
import lab.analyse.search.RoundProbe;
import lab.analyse.search.SearchSettings;
import lab.analyse.search.SearchSummary;
import lab.layout.LatencyTarget;
import lab.plan.VariancePrior;
import lab.run.search.InterleavedSearch.Outcome;
import lab.run.search.InterleavedSearch.Reference;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The interleaved schedule against a synthetic judge: each entry has a knee, its p99 is max(520 ms, 1,000 ms ×
 * e^(3 (load / knee - 1))) (log-linear past 0.8 of the knee, so the crossing is exactly the knee), and the host's drift
 * of a round scales every knee of that round alike.
 */
class InterleavedSearchTests {

	static final SearchSettings SETTINGS = new SearchSettings(500, 16_000, 100, 3, 5, 10, 2, 42, LatencyTarget.DEFAULT, 500);

	/** The same with two JVMs per entry: the bracket on the first, the refining rounds on a fresh one. */
	static final SearchSettings TWO_JVMS = new SearchSettings(500, 16_000, 100, 3, 5, 10, 2, 42, LatencyTarget.DEFAULT, 500, 2, 2, Map.of());

	/** A synthetic lab: knees per entry, a drift per round, a reference per call, a break above a load. */
	static class SyntheticLab implements InterleavedSearch.Prober {

		final Map<String, Double> knees;

		IntToDoubleFunction drift = round -> 1.0;

		IntToDoubleFunction referenceMs = call -> 100.0;

		final Map<String, Integer> breaksAbove = new HashMap<>();

		final List<String> restarts = new ArrayList<>();

		final List<String> said = new ArrayList<>();

		int references;

		/** The run's time budget in seconds (infinite: none); every probe takes 30 s of it. */
		double budgetSeconds = Double.POSITIVE_INFINITY;

		double elapsedSeconds;

		SyntheticLab(Map<String, Double> knees) {
			this.knees = knees;
		}

		@Override
		public double secondsLeft() {
			return this.budgetSeconds - this.elapsedSeconds;
		}

		@Override
		public Outcome probe(String entry, int load, int round, int position, int of) {
			this.elapsedSeconds += 30;
			if (this.breaksAbove.containsKey(entry) && load > this.breaksAbove.get(entry)) {
				return new Outcome(new RoundProbe(round, position, entry, load, Verdict.FAILED, false, null, "OutOfMemoryError", entry + "/" + load), true);
			}
			double knee = this.knees.get(entry) * this.drift.applyAsDouble(round);
			double p99 = Math.max(520, 1000 * Math.exp(3 * (load / knee - 1)));
			return new Outcome(new RoundProbe(round, position, entry, load, Verdict.OK, p99 <= 1000, p99, "", entry + "/" + load), false);
		}

		@Override
		public boolean restart(String entry, int jvm, boolean planned) {
			this.elapsedSeconds += 120;
			this.restarts.add(entry);
			return true;
		}

		@Override
		public Reference reference() {
			return new Reference(this.referenceMs.applyAsDouble(this.references++), 0, 1000L * this.references);
		}

		@Override
		public void progress(InterleavedSearch search) {
		}

		@Override
		public void say(String line) {
			this.said.add(line);
		}

	}

	static Map<String, Double> knees() {
		Map<String, Double> knees = new LinkedHashMap<>();
		knees.put("webflux", 2_300.0);
		knees.put("tomcat-loom", 1_100.0);
		knees.put("platform", 390.0);
		return knees;
	}

	@Test
	void everyRoundProbesEachEntryStillSearchingOnceInAFreshOrder() throws Exception {
		InterleavedSearch search = new InterleavedSearch(List.copyOf(knees().keySet()), SETTINGS);
		search.run(new SyntheticLab(knees()));
		List<Round> rounds = search.rounds();
		assertThat(rounds).isNotEmpty();
		for (Round round : rounds) {
			List<String> probed = search.probes().stream().filter(p -> p.round() == round.index()).map(RoundProbe::entry).toList();
			assertThat(probed).as("round %d: each entry once, in the round's order", round.index()).doesNotHaveDuplicates().isEqualTo(round.order());
		}
		// Rounds interleave: no entry's probes all come before another's.
		assertThat(rounds.get(0).order()).hasSize(3);
		// Refining rounds hold every entry, and their orders are shuffled afresh (not one fixed order).
		List<Round> refining = rounds.stream().filter(r -> r.kind() == Round.Kind.REFINE).toList();
		assertThat(refining).hasSize(3).allSatisfy(r -> assertThat(r.order()).containsExactlyInAnyOrderElementsOf(knees().keySet()));
		assertThat(rounds.stream().map(Round::order).distinct().count()).as("orders differ between rounds").isGreaterThan(1);
		// Refining probes sit just below and above the estimate, alternately.
		List<Integer> webflux = search.probes().stream().filter(p -> p.entry().equals("webflux") && refining.stream().anyMatch(r -> r.index() == p.round()))
			.map(RoundProbe::load).toList();
		assertThat(webflux.get(0)).isLessThan(2_300);
		assertThat(webflux.get(1)).isGreaterThan(2_300);
	}

	@Test
	void aFreshJvmThatWouldCarryARefiningRoundPastTheBudgetIsNotStarted() throws Exception {
		// platform breaks above 400: its refining probe above the estimate (refining round 2) breaks it; with little
		// budget left its fresh JVM is not started and it sits the last round out; the others are probed in it.
		SyntheticLab unbounded = new SyntheticLab(knees());
		unbounded.breaksAbove.put("platform", 400);
		InterleavedSearch first = new InterleavedSearch(List.copyOf(knees().keySet()), SETTINGS);
		first.run(unbounded);
		assertThat(unbounded.restarts).as("the unbounded search restarts it in the bracket and in refining").containsOnly("platform").hasSizeGreaterThan(1);

		SyntheticLab lab = new SyntheticLab(knees());
		lab.breaksAbove.put("platform", 400);
		// Before the last refining round 110 s are left: room for its three probes (90 s), not for a start (120 s, as the
		// bracket's restart measured) too.
		lab.budgetSeconds = unbounded.elapsedSeconds - 90 - 120 + 110;
		InterleavedSearch bounded = new InterleavedSearch(List.copyOf(knees().keySet()), SETTINGS);
		bounded.run(lab);
		assertThat(lab.restarts).as("the bracket's restart, not the last refining round's").hasSize(unbounded.restarts.size() - 1);
		assertThat(lab.said).anySatisfy(line -> assertThat(line).startsWith("lab: platform needs a fresh JVM, but the run's time budget leaves")
			.contains("it sits round"));
		int last = bounded.rounds().get(bounded.rounds().size() - 1).index();
		assertThat(bounded.probes().stream().filter(p -> p.round() == last).map(RoundProbe::entry)).containsExactlyInAnyOrder("webflux", "tomcat-loom");
		assertThat(lab.elapsedSeconds).isLessThanOrEqualTo(lab.budgetSeconds);
	}

	@Test
	void noRefiningRoundStartsThatTheTimeBudgetHasNoRoomFor() throws Exception {
		InterleavedSearch unbounded = new InterleavedSearch(List.copyOf(knees().keySet()), SETTINGS);
		unbounded.run(new SyntheticLab(knees()));
		long bracketRounds = unbounded.rounds().stream().filter(r -> r.kind() == Round.Kind.BRACKET).count();
		long bracketProbes = unbounded.probes().stream().filter(p -> p.round() <= bracketRounds).count();
		assertThat(unbounded.rounds()).filteredOn(r -> r.kind() == Round.Kind.REFINE).hasSize(3);

		// Room for the bracket, one refining round (3 probes, 90 s) and half another: the second (3 x 30 s + 10 s for its
		// references) does not start.
		SyntheticLab lab = new SyntheticLab(knees());
		lab.budgetSeconds = 30 * bracketProbes + 90 + 45;
		InterleavedSearch bounded = new InterleavedSearch(List.copyOf(knees().keySet()), SETTINGS);
		bounded.run(lab);
		assertThat(bounded.rounds()).filteredOn(r -> r.kind() == Round.Kind.REFINE).hasSize(1);
		assertThat(lab.elapsedSeconds).isLessThanOrEqualTo(lab.budgetSeconds);
		assertThat(lab.said).anySatisfy(line -> assertThat(line).contains("time budget left 45 s, less than a refining round (3 probes of 30 s) (about 90 s at this run's costs)")
			.contains("before refining round 2"));
		assertThat(bounded.ended()).containsOnlyKeys(knees().keySet()).allSatisfy((entry, why) -> assertThat(why).contains("time budget"));
		// A bracket that used the whole budget leaves no refining round at all; its own crossings stand.
		SyntheticLab spent = new SyntheticLab(knees());
		spent.budgetSeconds = 30 * bracketProbes + 50;
		InterleavedSearch bracketOnly = new InterleavedSearch(List.copyOf(knees().keySet()), SETTINGS);
		bracketOnly.run(spent);
		assertThat(bracketOnly.rounds()).noneMatch(r -> r.kind() == Round.Kind.REFINE);
		assertThat(spent.said).anySatisfy(line -> assertThat(line).contains("before refining round 1"));
		// What ran is kept, and it is what the unbounded search ran first (the same seed, the same schedule).
		assertThat(bounded.probes()).hasSize((int) bracketProbes + 3).isEqualTo(unbounded.probes().subList(0, (int) bracketProbes + 3));
	}

	@Test
	void theCrossingsFindEachKneeAndTheRatiosCancelTheHostsDrift() throws Exception {
		InterleavedSearch search = new InterleavedSearch(List.copyOf(knees().keySet()), SETTINGS);
		SyntheticLab lab = new SyntheticLab(knees());
		// The host drifts by up to 20% between rounds: every entry's capacity moves with it, their ratios do not.
		double[] drift = { 1.0, 0.9, 1.0, 0.95, 0.85, 1.0, 0.9, 1.0, 0.85, 0.95, 1.0 };
		lab.drift = round -> drift[(round - 1) % drift.length];
		search.run(lab);
		SearchSummary summary = SearchSummary.of(search.record("default", "webflux", null));
		SearchSummary.Ratio tomcat = summary.ratios().stream().filter(r -> r.entry().equals("tomcat-loom")).findFirst().orElseThrow();
		assertThat(tomcat.interval().n()).isGreaterThanOrEqualTo(3);
		// Within 6% of the true 0.478 (the synthetic knee is exponential in load, so log-log crossings away from it carry a
		// little model error), and its interval holds the truth.
		assertThat(tomcat.interval().estimate()).isCloseTo(1_100 / 2_300.0, within(0.06 * 1_100 / 2_300.0));
		assertThat(tomcat.interval().holds(1_100 / 2_300.0)).as(tomcat.interval().toString()).isTrue();
		assertThat(tomcat.unresolved()).isFalse();
		// The capacities themselves carry the drift: their interval is wide.
		Interval webflux = summary.entry("webflux").capacity();
		assertThat(webflux.high() / webflux.low()).isGreaterThan(1.1);
	}

	@Test
	void aRestartOfOneEntryLeavesTheOthersSearchesIntact() throws Exception {
		InterleavedSearch plain = new InterleavedSearch(List.copyOf(knees().keySet()), SETTINGS);
		plain.run(new SyntheticLab(knees()));
		InterleavedSearch breaking = new InterleavedSearch(List.copyOf(knees().keySet()), SETTINGS);
		SyntheticLab lab = new SyntheticLab(knees());
		// Tomcat + Loom dies above 1,500 users (its bracket's 2,000 breaks it).
		lab.breaksAbove.put("tomcat-loom", 1_500);
		breaking.run(lab);
		assertThat(lab.restarts).isNotEmpty().allMatch("tomcat-loom"::equals);
		for (String other : List.of("webflux", "platform")) {
			assertThat(loads(breaking, other)).as(other).isEqualTo(loads(plain, other));
		}
		assertThat(breaking.brackets().get("tomcat-loom").firstMissed()).isEqualTo(2_000);
		assertThat(breaking.ended()).isEmpty();
	}

	@Test
	void aRoundWhoseReferenceMovedIsMarkedAndRunAgain() throws Exception {
		InterleavedSearch search = new InterleavedSearch(List.copyOf(knees().keySet()), SETTINGS);
		SyntheticLab lab = new SyntheticLab(knees());
		// The reference takes 130 ms instead of 100 once: after the bracket rounds, in the first refining round.
		int[] slowCall = { -1 };
		lab.referenceMs = call -> (call == slowCall[0]) ? 130.0 : 100.0;
		InterleavedSearch bracketOnly = new InterleavedSearch(List.copyOf(knees().keySet()), new SearchSettings(500, 16_000, 100, 0, 5, 10, 2, 42, LatencyTarget.DEFAULT, 500));
		bracketOnly.run(new SyntheticLab(knees()));
		slowCall[0] = 2 * bracketOnly.rounds().size() + 1;
		search.run(lab);
		List<Round> refining = search.rounds().stream().filter(r -> r.kind() == Round.Kind.REFINE).toList();
		assertThat(refining).hasSize(4);
		assertThat(refining.get(0).moved()).isTrue();
		assertThat(refining.get(0).referenceAfterMs()).isEqualTo(130.0);
		assertThat(refining.get(1).rerunOf()).isEqualTo(refining.get(0).index());
		assertThat(refining.get(1).moved()).isFalse();
		assertThat(refining.stream().filter(Round::counted)).hasSize(3);
		assertThat(lab.said).anyMatch(line -> line.contains("moved") && line.contains("running it again"));
		SearchSummary summary = SearchSummary.of(search.record("default", "webflux", null));
		// The marked round is not used: every other round is, bracket rounds included (their probes near the knee).
		assertThat(summary.entry("webflux").crossings()).hasSize(search.rounds().size() - 1);
		assertThat(summary.entry("webflux").capacity().n()).isGreaterThanOrEqualTo(3);
	}

	@Test
	void aRoundTheHostRanSteadilyFasterCountsAndOneItChangedWithinIsMarked() throws Exception {
		// As a run here with this host's crossings saw it: about 81 ms in the first rounds, then a round steady within
		// itself and 13% faster than their median (73, 70): counted. Then one whose host changed within it (70 -> 81).
		InterleavedSearch search = new InterleavedSearch(List.copyOf(knees().keySet()), SETTINGS);
		SyntheticLab lab = new SyntheticLab(knees());
		double[] references = { 81, 82, 80, 81, 81, 80, 73, 70, 70, 81 };
		lab.referenceMs = call -> (call < references.length) ? references[call] : 80.0;
		search.run(lab);
		assertThat(search.rounds().size()).isGreaterThanOrEqualTo(5);
		assertThat(search.rounds().get(3).moved()).as("steadily faster: %s", search.rounds().get(3)).isFalse();
		assertThat(search.rounds().get(4).moved()).as("the host changed within it: %s", search.rounds().get(4)).isTrue();
		assertThat(search.rounds().subList(0, 3)).noneMatch(Round::moved);
	}

	@Test
	void aFirstRoundsDisturbedReferenceMarksThatRoundOnly() throws Exception {
		// As a fresh run here measured it: 169 ms before the first round (a JVM just warmed still busy on the core), 81
		// after it, about 80 from then on.
		InterleavedSearch search = new InterleavedSearch(List.copyOf(knees().keySet()), SETTINGS);
		SyntheticLab lab = new SyntheticLab(knees());
		lab.referenceMs = call -> (call == 0) ? 169.0 : (call == 1) ? 81.0 : 80.0;
		search.run(lab);
		assertThat(search.rounds().get(0).moved()).isTrue();
		assertThat(search.rounds().subList(1, search.rounds().size())).isNotEmpty().noneMatch(Round::moved);
	}

	@Test
	void theTwinOfTheBaselineIsTheNoiseFloorAndCannotBeToldApart() throws Exception {
		Map<String, Double> knees = new LinkedHashMap<>();
		knees.put("webflux", 2_300.0);
		knees.put("webflux.aa", 2_300.0);
		SyntheticLab lab = new SyntheticLab(knees) {

			@Override
			public Outcome probe(String entry, int load, int round, int position, int of) {
				// Each probe's p99 off by 4% (sampling noise), high and low by turns, the twin's the other way round.
				Outcome outcome = super.probe(entry, load, round, position, of);
				RoundProbe p = outcome.probe();
				double noise = 1 + 0.04 * (((round + entry.length()) % 2 == 0) ? 1 : -1);
				return new Outcome(new RoundProbe(p.round(), p.position(), p.entry(), p.load(), p.verdict(), p.latencyMs() * noise <= 1000,
						p.latencyMs() * noise, "", p.level()), false);
			}

		};
		InterleavedSearch search = new InterleavedSearch(List.copyOf(knees.keySet()), SETTINGS);
		search.run(lab);
		SearchSummary summary = SearchSummary.of(search.record("default", "webflux", "webflux.aa"));
		SearchSummary.Ratio floor = summary.noiseFloor();
		assertThat(floor.entry()).isEqualTo("webflux.aa");
		assertThat(floor.interval().holds(1.0)).isTrue();
		assertThat(floor.unresolved()).isTrue();
		assertThat(floor.describe()).startsWith("≈ ").contains("cannot be told apart");
	}

	@Test
	void withTwoJvmsEveryEntryGetsAFreshOneAfterTheBracketForItsRefiningRounds() throws Exception {
		SyntheticLab lab = new SyntheticLab(knees());
		// A budget the search never reaches: its clock measures the costs.
		lab.budgetSeconds = 1e6;
		InterleavedSearch search = new InterleavedSearch(List.copyOf(knees().keySet()), TWO_JVMS);
		search.run(lab);
		// One planned fresh JVM each, before the first refining round; the bracket's probes on the first JVM, the refining ones on the second.
		assertThat(lab.restarts).containsExactlyInAnyOrderElementsOf(knees().keySet());
		int firstRefining = search.rounds().stream().filter(r -> r.kind() == Round.Kind.REFINE).mapToInt(Round::index).min().orElseThrow();
		assertThat(search.probes()).allSatisfy(p -> assertThat(p.jvmNumber()).isEqualTo((p.round() < firstRefining) ? 1 : 2));
		// The summary's intervals then see two JVMs per entry.
		SearchSummary summary = SearchSummary.of(search.record("default", "webflux", null));
		assertThat(summary.entry("tomcat-loom").capacity().jvmLevel()).isEqualTo(Interval.JvmLevel.POOLED);
		// Costs as measured: a start 120 s (the synthetic lab's), a probe 30 s.
		assertThat(search.costs().startSeconds()).isEqualTo(120);
		assertThat(search.costs().probeSeconds()).isEqualTo(30);
	}

	@Test
	void aQuietVariantKeepsItsOneJvmAndTheOthersGetTheirFreshOnesAndTheCostsAreTimedWithoutABudget() throws Exception {
		// The lab's shipped prior: the platform pool's JVMs spread none (its runs less than its run level), under
		// VariancePrior.QUIET_SD; WebFlux's 10.1%.
		Map<String, Double> knees = new LinkedHashMap<>();
		knees.put("app-webflux", 2_300.0);
		knees.put("app-tomcat-platform", 390.0);
		SyntheticLab lab = new SyntheticLab(knees);
		lab.budgetSeconds = Double.POSITIVE_INFINITY;
		InterleavedSearch search = new InterleavedSearch(List.copyOf(knees.keySet()), TWO_JVMS.withPrior(VariancePrior.SHIPPED));
		search.run(new Clocked(lab));
		assertThat(lab.restarts).containsExactly("app-webflux");
		assertThat(search.probes().stream().filter(p -> p.entry().equals("app-tomcat-platform"))).allSatisfy(p -> assertThat(p.jvmNumber()).isEqualTo(1));
		assertThat(lab.said).contains("lab: JVMs per entry: app-webflux 2 (the baseline), app-tomcat-platform 1");
		// Without a budget (seconds left all infinite) the costs are timed by the run's clock: where the minutes went.
		assertThat(search.costs().probes()).isEqualTo(search.probes().size());
		assertThat(search.costs().probesTotalSeconds()).isEqualTo(30.0 * search.probes().size());
	}

	@Test
	void theNoisiestVariantGetsAThirdJvmAndAQuieterOneNoneForTheSameStarts() throws Exception {
		// The lab's five variants under the shipped prior, two JVMs each in the scenario, four refining rounds: the plan
		// (JvmPlan) gives WebFlux + VT (23.1% between JVMs) three, Tomcat + VT (8.4%) one, the same four fresh JVMs.
		Map<String, Double> knees = new LinkedHashMap<>();
		knees.put("app-webflux", 2_300.0);
		knees.put("app-webflux-loom", 1_700.0);
		knees.put("app-jetty-loom", 1_000.0);
		knees.put("app-tomcat-loom", 1_000.0);
		knees.put("app-tomcat-platform", 390.0);
		SyntheticLab lab = new SyntheticLab(knees);
		SearchSettings settings = new SearchSettings(500, 16_000, 100, 4, 5, 10, 2, 42, LatencyTarget.DEFAULT, 500, 2, 2, Map.of())
			.withPrior(VariancePrior.SHIPPED);
		InterleavedSearch search = new InterleavedSearch(List.copyOf(knees.keySet()), settings, "app-webflux");
		search.run(lab);
		assertThat(lab.restarts).containsExactlyInAnyOrder("app-webflux-loom", "app-webflux-loom", "app-jetty-loom", "app-webflux");
		List<Integer> refining = search.rounds().stream().filter(r -> r.kind() == Round.Kind.REFINE).map(Round::index).toList();
		assertThat(refining).hasSize(4);
		// WebFlux + VT: refining round 1 on its second JVM, 2-4 on its third (fresh ones early: the budget cuts the last rounds).
		assertThat(search.probes().stream().filter(p -> p.entry().equals("app-webflux-loom") && refining.contains(p.round())).map(p -> p.jvmNumber()))
			.containsExactly(2, 3, 3, 3);
		assertThat(search.probes().stream().filter(p -> p.entry().equals("app-tomcat-loom"))).allSatisfy(p -> assertThat(p.jvmNumber()).isEqualTo(1));
		assertThat(lab.said).anyMatch(line -> line.startsWith("lab: JVMs per entry, where the lab's prior says a fresh one narrows the widest ratio most"));
		// The summary sees them: WebFlux + VT's interval on its JVMs whose probes placed a crossing (the two refining ones at
		// least: a bracket probe far from the target places none), Tomcat + VT's on its one.
		SearchSummary summary = SearchSummary.of(search.record("default", "app-webflux", null));
		assertThat(summary.entry("app-webflux-loom").capacity().jvms()).isBetween(2, 3);
		assertThat(summary.entry("app-tomcat-loom").capacity().jvms()).isEqualTo(1);
	}

	/** The synthetic lab with no budget, its own clock the costs are timed by (as a run without searchMinutes is). */
	static final class Clocked implements InterleavedSearch.Prober {

		private final SyntheticLab lab;

		Clocked(SyntheticLab lab) {
			this.lab = lab;
		}

		@Override
		public Outcome probe(String entry, int load, int round, int position, int of) {
			return this.lab.probe(entry, load, round, position, of);
		}

		@Override
		public boolean restart(String entry, int jvm, boolean planned) {
			return this.lab.restart(entry, jvm, planned);
		}

		@Override
		public Reference reference() {
			return this.lab.reference();
		}

		@Override
		public void progress(InterleavedSearch search) {
		}

		@Override
		public void say(String line) {
			this.lab.say(line);
		}

		@Override
		public double seconds() {
			return this.lab.elapsedSeconds;
		}

	}

	@Test
	void aBudgetWithoutRoomForTheFreshJvmsRefinesOnTheJvmsThereAreAndStopsWhereNotEvenARoundFits() throws Exception {
		SyntheticLab unbounded = new SyntheticLab(knees());
		InterleavedSearch first = new InterleavedSearch(List.copyOf(knees().keySet()), TWO_JVMS);
		first.run(unbounded);
		long bracketProbes = first.probes().stream().filter(p -> p.jvmNumber() == 1).count();
		// Room for the bracket and 400 s more: three starts (360 s) and a round (90 s) do not fit, the three refining
		// rounds on the first JVMs (270 s) do.
		SyntheticLab lab = new SyntheticLab(knees());
		lab.budgetSeconds = 30 * bracketProbes + 400;
		InterleavedSearch bounded = new InterleavedSearch(List.copyOf(knees().keySet()), TWO_JVMS);
		bounded.run(lab);
		assertThat(lab.restarts).isEmpty();
		assertThat(bounded.rounds().stream().filter(r -> r.kind() == Round.Kind.REFINE)).hasSize(3);
		assertThat(bounded.probes()).allSatisfy(p -> assertThat(p.jvmNumber()).isEqualTo(1));
		assertThat(lab.said).filteredOn(line -> line.contains("less than fresh JVMs for 3 variants and a refining round"))
			.singleElement().satisfies(line -> assertThat(line).contains("the refining rounds stay on the JVMs there are"));
		// Every entry on one JVM: the lab's prior stands in for the JVM level, and the report says so.
		SearchSummary summary = SearchSummary.of(bounded.record("default", "webflux", null));
		assertThat(summary.entries()).allSatisfy(e -> assertThat(e.capacity().n() == 0 || e.capacity().jvmLevel() == Interval.JvmLevel.PRIOR).isTrue());
		// Room for the bracket and 60 s: not even a round fits; refining stops there and says so.
		SyntheticLab tight = new SyntheticLab(knees());
		tight.budgetSeconds = 30 * bracketProbes + 60;
		InterleavedSearch stopped = new InterleavedSearch(List.copyOf(knees().keySet()), TWO_JVMS);
		stopped.run(tight);
		assertThat(stopped.rounds()).noneMatch(r -> r.kind() == Round.Kind.REFINE);
		assertThat(tight.said).anySatisfy(line -> assertThat(line).contains("less than a refining round (3 probes of 30 s)").contains("before refining round 1"));
	}

	private static List<Integer> loads(InterleavedSearch search, String entry) {
		return search.probes().stream().filter(p -> p.entry().equals(entry)).map(RoundProbe::load).toList();
	}

}
