package lab.layout;

import java.util.Collections;
import java.util.LinkedHashMap;
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
 * @param groups a study of arms in groups (each model's pool sizes): the answer of each group, whose best is named apart;
 * then {@code best} is null and {@code beaten} and {@code unplaced} hold every group's. Empty for a study without
 * groups (and in a file written before groups were)
 * @param confirmation the best on fresh JVMs after the study (a study without groups; each group has its own); null
 * when it was not run (no best, interrupted, no time left, or a file written before confirmations were)
 */
public record TuneAnswer(LatencyTarget target, String best, Bounds capacity, List<String> withinNoise, Map<String, Bounds> beaten, boolean interrupted,
		Map<String, String> unplaced, List<Step> steps, List<Group> groups, Confirmation confirmation) {

	public TuneAnswer {
		withinNoise = List.copyOf(withinNoise);
		beaten = Collections.unmodifiableMap(new LinkedHashMap<>(beaten));
		unplaced = Collections.unmodifiableMap(new LinkedHashMap<>(unplaced));
		steps = List.copyOf(steps);
		groups = (groups != null) ? List.copyOf(groups) : List.of();
	}

	/** The answer of a study without groups. */
	public TuneAnswer(LatencyTarget target, String best, Bounds capacity, List<String> withinNoise, Map<String, Bounds> beaten, boolean interrupted,
			Map<String, String> unplaced, List<Step> steps) {
		this(target, best, capacity, withinNoise, beaten, interrupted, unplaced, steps, List.of(), null);
	}

	/**
	 * A best searched again on fresh JVMs after the study, beside the other bests (and, without groups, the arms within
	 * noise of it).
	 *
	 * @param capacity its capacity and interval there
	 * @param confirmed whether that interval overlaps the study's and no arm of its group lay wholly above it there
	 */
	public record Confirmation(Bounds capacity, boolean confirmed) {
	}

	/**
	 * One group's answer in a study of groups.
	 *
	 * @param name the group (the arm of the file its arms were made from)
	 * @param best its best arm's label; null when it named none
	 * @param capacity the best's capacity and interval ({@link Bounds#NONE} without a best)
	 * @param withinNoise the group's arms whose intervals overlap its best's
	 * @param beaten the group's arms its best beats, with their intervals
	 * @param unplaced without a best: each of its arms in its last step and why it has no capacity
	 * @param confirmation its best on fresh JVMs after the study; null when not run
	 */
	public record Group(String name, String best, Bounds capacity, List<String> withinNoise, Map<String, Bounds> beaten, Map<String, String> unplaced,
			Confirmation confirmation) {

		public Group {
			withinNoise = List.copyOf(withinNoise);
			beaten = Collections.unmodifiableMap(new LinkedHashMap<>(beaten));
			unplaced = Collections.unmodifiableMap(new LinkedHashMap<>(unplaced));
		}

		/** Whether the group named a best it measured. */
		public boolean named() {
			return this.best != null && !this.best.isEmpty();
		}

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
