package lab.analyse.search;

import lab.analyse.LevelResult.Verdict;

/**
 * One probe of an interleaved search as it ran: the round and its place in the round's order, the entry (a variant in
 * its arm), the load, and what the bracket and the crossing read of its judgment.
 *
 * @param round the round that ran it (1 first)
 * @param position its place in that round's shuffled order (1 first)
 * @param entry the variant's label in the run
 * @param load users (closed) or arrivals per second (open)
 * @param verdict the level's verdict
 * @param meets whether it met the latency target (null: not judged)
 * @param latencyMs the target's percentile over every request sent, ms (null: not measured)
 * @param reason the level's first reason, "" when none
 * @param level the level's directory, relative to the results directory
 */
public record RoundProbe(int round, int position, String entry, int load, Verdict verdict, Boolean meets, Double latencyMs, String reason,
		String level) {

	/** The same judgment as the bracket reads it. */
	public CapacitySearch.Probe bracketProbe() {
		return new CapacitySearch.Probe(this.load, this.verdict, this.meets, this.reason);
	}

	/** Whether its latency can place a crossing: an OK level with a positive, finite percentile. */
	boolean measured() {
		return this.verdict == Verdict.OK && this.latencyMs != null && this.latencyMs > 0 && Double.isFinite(this.latencyMs);
	}

}
