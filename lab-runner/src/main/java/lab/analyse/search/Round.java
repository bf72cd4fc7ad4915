package lab.analyse.search;

import java.util.List;

/**
 * One round of an interleaved search: every entry still searching probed once, in a freshly shuffled order, with the
 * CPU reference timed on the service's core before and after it and the host's steal time across it.
 *
 * @param index 1 first, counting re-runs
 * @param kind a bracket round (locating the knee) or a refining one (just below or above the estimate)
 * @param order the entries in the order they were probed
 * @param referenceBeforeMs the reference's time before the round, ms
 * @param referenceAfterMs and after it
 * @param stealPercent the host's steal time across the round, % of all CPU time (null: not read)
 * @param moved the reference moved beyond the recorded threshold from the run's median so far: the round is not used
 * @param rerunOf the round this one ran again, because that one's reference moved (null: none)
 */
public record Round(int index, Kind kind, List<String> order, Double referenceBeforeMs, Double referenceAfterMs, Double stealPercent,
		boolean moved, Integer rerunOf) {

	public enum Kind {
		BRACKET, REFINE
	}

	public Round {
		order = List.copyOf(order);
	}

	/**
	 * Whether its probes place the capacities and ratios and shape the elasticity: any round whose reference held,
	 * bracket rounds included ({@link SearchSummary}). A marked round's probes steer the search only.
	 */
	public boolean counted() {
		return !this.moved;
	}

}
