package lab.layout;

import java.util.List;
import java.util.Map;

/**
 * What a tune run ({@code --scenario tune}) writes to {@link RunDir#TUNE} and its report reads back: the best arm within
 * the latency target with its capacity, the arms within noise of it, those it beats, and the steps of the successive
 * halving. The runner writes it and reads it through this type alone (its JSON mapper turns the record's components
 * into the file's fields).
 *
 * @param target the latency target the capacities are within (in the file as written, {@link LatencyTarget#text()})
 * @param best the best arm's label; null when the study named none (no arm's capacity found, or interrupted)
 * @param capacity the best arm's capacity and its interval ({@link Bounds#NONE} without a best)
 * @param withinNoise the arms whose intervals overlap the best's, in the study's order
 * @param beaten the arms the best beats (their intervals wholly below its), with their intervals
 * @param interrupted whether the study stopped at the step it was in
 * @param unplaced without a best: each arm of the last step and why it has no capacity
 * @param steps the steps, from the first
 */
public record TuneAnswer(LatencyTarget target, String best, Bounds capacity, List<String> withinNoise, Map<String, Bounds> beaten, boolean interrupted,
		Map<String, String> unplaced, List<Step> steps) {

	public TuneAnswer {
		withinNoise = List.copyOf(withinNoise);
		beaten = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(beaten));
		unplaced = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(unplaced));
		steps = List.copyOf(steps);
	}

	/** Whether the study named a best it measured. */
	public boolean named() {
		return this.best != null && !this.best.isEmpty();
	}

	/**
	 * A capacity's estimate and 95% interval as the search stated it.
	 *
	 * @param estimate the geometric mean of the crossings
	 * @param low the interval's lower end
	 * @param high its upper end
	 * @param n the crossings it rests on
	 * @param jvms the JVMs they came from
	 * @param df the interval's degrees of freedom
	 * @param jvmLevel where its JVM-to-JVM spread came from ({@code OWN}, {@code POOLED} or {@code PRIOR})
	 */
	public record Bounds(double estimate, double low, double high, int n, int jvms, double df, String jvmLevel) {

		/** No capacity: every figure NaN. */
		public static final Bounds NONE = new Bounds(Double.NaN, Double.NaN, Double.NaN, 0, 0, 0, "PRIOR");

	}

	/**
	 * One step of the halving.
	 *
	 * @param step its number, from 1
	 * @param arms the arms it searched
	 * @param dropped the arms it dropped
	 * @param turns the arms of each turn, when the step ran in turns (memory), else one turn of all its arms
	 */
	public record Step(int step, List<String> arms, List<String> dropped, List<List<String>> turns) {

		public Step {
			arms = List.copyOf(arms);
			dropped = List.copyOf(dropped);
			turns = turns.stream().map(List::copyOf).toList();
		}

	}

}
