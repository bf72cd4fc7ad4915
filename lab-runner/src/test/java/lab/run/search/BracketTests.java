package lab.run.search;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.IntFunction;

import lab.analyse.judge.LevelResult.Verdict;
import lab.analyse.search.BracketFound;
import lab.analyse.search.RoundProbe;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/** The search on synthetic judgments: a service that meets the target up to a load, breaks, or cannot be measured. */
class BracketTests {

	/** Runs a search against {@code judge}, returning the loads probed in order. */
	private static List<Integer> run(Bracket search, IntFunction<RoundProbe> judge) {
		List<Integer> loads = new ArrayList<>();
		for (OptionalInt next = search.next(); next.isPresent(); next = search.next()) {
			loads.add(next.getAsInt());
			search.record(judge.apply(next.getAsInt()));
			assertThat(loads).as("the search ends").hasSizeLessThan(40);
		}
		return loads;
	}

	private static RoundProbe met(int load) {
		return probe(load, Verdict.OK, true, "");
	}

	private static RoundProbe missed(int load) {
		return probe(load, Verdict.OK, false, "");
	}

	private static RoundProbe probe(int load, Verdict verdict, Boolean meets, String reason) {
		return new RoundProbe(0, 0, "v", load, verdict, meets, null, reason, "");
	}

	@Test
	void fromAnEarlierCrossingItStepsByLessThanTwo() {
		// The last run's crossing was 2,000: 2,000 met, then 3,000 (a step of 1.5) missed; 50% resolution: done in two probes.
		Bracket search = new Bracket(2_000, 16_000, 50, 1.5);
		List<Integer> loads = run(search, load -> (load <= 2_300) ? met(load) : missed(load));
		assertThat(loads).containsExactly(2_000, 3_000);
		assertThat(search.found()).isEqualTo(new BracketFound(2_000, 3_000, false, "between 2,000 (met) and 3,000 (missed): within 50%"));
		// Missed at the start: down by 1.5 (2,000 / 1.5 = 1,333).
		Bracket down = new Bracket(2_000, 16_000, 50, 1.5);
		assertThat(run(down, load -> (load <= 1_400) ? met(load) : missed(load))).startsWith(2_000, 1_333);
	}

	@Test
	void itClimbsUntilMissedThenNarrowsToTheResolution() {
		Bracket search = new Bracket(250, 16_000, 10);
		List<Integer> loads = run(search, load -> (load <= 2_300) ? met(load) : missed(load));
		assertThat(loads).startsWith(250, 500, 1_000, 2_000, 4_000);
		BracketFound found = search.found();
		assertThat(found.capacity()).isLessThanOrEqualTo(2_300).isGreaterThanOrEqualTo(2_000);
		assertThat(found.firstMissed() - found.capacity()).isLessThanOrEqualTo((int) (0.1 * found.capacity()));
		assertThat(found.atLeast()).isFalse();
		assertThat(found.why()).contains("within 10%");
	}

	@Test
	void aBreakBoundsTheSearchLikeAMiss() {
		Bracket search = new Bracket(500, 16_000, 10);
		run(search, load -> (load < 1_700) ? met(load) : probe(load, Verdict.FAILED, false, "OutOfMemoryError in the service log"));
		assertThat(search.found().capacity()).isBetween(1_530, 1_699);
		assertThat(search.found().firstMissed()).isGreaterThanOrEqualTo(1_700);
	}

	@Test
	void anInvalidProbeIsRunOnceMoreAndNeverABound() {
		// INVALID once at 2,000 (the harness hiccuped), then measured: the search goes on.
		List<Integer> seen = new ArrayList<>();
		Bracket once = new Bracket(1_000, 4_000, 10);
		List<Integer> loads = run(once, load -> {
			boolean first = !seen.contains(load);
			seen.add(load);
			return (load == 2_000 && first) ? probe(load, Verdict.INVALID, false, "injector cores 95% busy > 90%") : met(load);
		});
		assertThat(loads).containsExactly(1_000, 2_000, 2_000, 4_000);
		assertThat(once.found().capacity()).isEqualTo(4_000);
		assertThat(once.found().atLeast()).as("met at the planned maximum: at least that").isTrue();
		// INVALID twice: the search stops with what it knows, "at least" the last load that met it, and why.
		Bracket twice = new Bracket(1_000, 16_000, 10);
		run(twice, load -> (load >= 4_000) ? probe(load, Verdict.INVALID, false, "injector cores 95% busy > 90%") : met(load));
		assertThat(twice.found().capacity()).isEqualTo(2_000);
		assertThat(twice.found().atLeast()).isTrue();
		assertThat(twice.found().why()).contains("INVALID twice at 4,000, never a bound: injector cores 95% busy > 90%");
	}

	@Test
	void beyondWhatTheHostCanDriveIsAtLeastThePlannedMaximum() {
		Bracket search = new Bracket(1_000, 5_000, 10);
		assertThat(run(search, BracketTests::met)).containsExactly(1_000, 2_000, 4_000, 5_000);
		assertThat(search.found()).isEqualTo(new BracketFound(5_000, 0, true, "met at the planned maximum, 5,000"));
	}

	@Test
	void aServiceThatMissesAtTheStartIsSearchedBelowIt() {
		Bracket search = new Bracket(1_000, 8_000, 10);
		run(search, load -> (load <= 300) ? met(load) : missed(load));
		assertThat(search.found().capacity()).isBetween(273, 300);
		Bracket never = new Bracket(1_000, 8_000, 10);
		run(never, BracketTests::missed);
		assertThat(never.found().capacity()).isZero();
		assertThat(never.found().why()).startsWith("missed down to");
	}

	@Test
	void aSearchNeedsABoundedRangeAndAResolution() {
		assertThat(catchThrowable(() -> new Bracket(0, 10, 10))).isInstanceOf(IllegalArgumentException.class);
		assertThat(catchThrowable(() -> new Bracket(100, 10, 10))).isInstanceOf(IllegalArgumentException.class);
		assertThat(catchThrowable(() -> new Bracket(100, 1_000, 0))).isInstanceOf(IllegalArgumentException.class);
	}

}
