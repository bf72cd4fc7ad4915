package lab.analyse.search;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.IntFunction;

import lab.analyse.search.CapacitySearch.Probe;
import lab.analyse.LevelResult.Verdict;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/** The search on synthetic judgments: a service that meets the target up to a load, breaks, or cannot be measured. */
class CapacitySearchTests {

	/** Runs a search against {@code judge}, returning the loads probed in order. */
	private static List<Integer> run(CapacitySearch search, IntFunction<Probe> judge) {
		List<Integer> loads = new ArrayList<>();
		for (OptionalInt next = search.next(); next.isPresent(); next = search.next()) {
			loads.add(next.getAsInt());
			search.record(judge.apply(next.getAsInt()));
			assertThat(loads).as("the search ends").hasSizeLessThan(40);
		}
		return loads;
	}

	private static Probe met(int load) {
		return new Probe(load, Verdict.OK, true, "");
	}

	private static Probe missed(int load) {
		return new Probe(load, Verdict.OK, false, "");
	}

	@Test
	void itClimbsUntilMissedThenNarrowsToTheResolution() {
		CapacitySearch search = new CapacitySearch(250, 16_000, 10);
		List<Integer> loads = run(search, load -> (load <= 2_300) ? met(load) : missed(load));
		assertThat(loads).startsWith(250, 500, 1_000, 2_000, 4_000);
		CapacitySearch.Found found = search.found();
		assertThat(found.capacity()).isLessThanOrEqualTo(2_300).isGreaterThanOrEqualTo(2_000);
		assertThat(found.firstMissed() - found.capacity()).isLessThanOrEqualTo((int) (0.1 * found.capacity()));
		assertThat(found.atLeast()).isFalse();
		assertThat(found.why()).contains("within 10%");
	}

	@Test
	void aBreakBoundsTheSearchLikeAMiss() {
		CapacitySearch search = new CapacitySearch(500, 16_000, 10);
		run(search, load -> (load < 1_700) ? met(load) : new Probe(load, Verdict.FAILED, false, "OutOfMemoryError in the service log"));
		assertThat(search.found().capacity()).isBetween(1_530, 1_699);
		assertThat(search.found().firstMissed()).isGreaterThanOrEqualTo(1_700);
	}

	@Test
	void anInvalidProbeIsRunOnceMoreAndNeverABound() {
		// INVALID once at 2,000 (the harness hiccuped), then measured: the search goes on.
		List<Integer> seen = new ArrayList<>();
		CapacitySearch once = new CapacitySearch(1_000, 4_000, 10);
		List<Integer> loads = run(once, load -> {
			boolean first = !seen.contains(load);
			seen.add(load);
			return (load == 2_000 && first) ? new Probe(load, Verdict.INVALID, false, "injector cores 95% busy > 90%") : met(load);
		});
		assertThat(loads).containsExactly(1_000, 2_000, 2_000, 4_000);
		assertThat(once.found().capacity()).isEqualTo(4_000);
		assertThat(once.found().atLeast()).as("met at the planned maximum: at least that").isTrue();
		// INVALID twice: the search stops with what it knows, "at least" the last load that met it, and why.
		CapacitySearch twice = new CapacitySearch(1_000, 16_000, 10);
		run(twice, load -> (load >= 4_000) ? new Probe(load, Verdict.INVALID, false, "injector cores 95% busy > 90%") : met(load));
		assertThat(twice.found().capacity()).isEqualTo(2_000);
		assertThat(twice.found().atLeast()).isTrue();
		assertThat(twice.found().why()).contains("INVALID twice at 4,000, never a bound: injector cores 95% busy > 90%");
	}

	@Test
	void beyondWhatTheHostCanDriveIsAtLeastThePlannedMaximum() {
		CapacitySearch search = new CapacitySearch(1_000, 5_000, 10);
		assertThat(run(search, CapacitySearchTests::met)).containsExactly(1_000, 2_000, 4_000, 5_000);
		assertThat(search.found()).isEqualTo(new CapacitySearch.Found(5_000, 0, true, "met at the planned maximum, 5,000"));
	}

	@Test
	void aServiceThatMissesAtTheStartIsSearchedBelowIt() {
		CapacitySearch search = new CapacitySearch(1_000, 8_000, 10);
		run(search, load -> (load <= 300) ? met(load) : missed(load));
		assertThat(search.found().capacity()).isBetween(273, 300);
		CapacitySearch never = new CapacitySearch(1_000, 8_000, 10);
		run(never, CapacitySearchTests::missed);
		assertThat(never.found().capacity()).isZero();
		assertThat(never.found().why()).startsWith("missed down to");
	}

	@Test
	void aSearchNeedsABoundedRangeAndAResolution() {
		assertThat(catchThrowable(() -> new CapacitySearch(0, 10, 10))).isInstanceOf(IllegalArgumentException.class);
		assertThat(catchThrowable(() -> new CapacitySearch(100, 10, 10))).isInstanceOf(IllegalArgumentException.class);
		assertThat(catchThrowable(() -> new CapacitySearch(100, 1_000, 0))).isInstanceOf(IllegalArgumentException.class);
	}

}
