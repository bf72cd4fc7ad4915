package lab.run.search;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.IntFunction;

import lab.analyse.search.Interval;
import lab.analyse.search.SearchSettings;
import lab.analyse.search.SearchSummary;

/**
 * Successive halving over arms on the interleaved capacity search (Jamieson and Talwalkar's schedule, with intervals as
 * the rule): every arm is searched at a coarse budget; an arm that lies below the leader is dropped: by their ratio
 * paired within the rounds both were probed in (its interval wholly below 1: the host's drift of a round falls on both
 * and cancels), or, for two arms that never shared a round (searched in different turns), by their capacity intervals,
 * the one wholly below the other's; the survivors are searched again, with more rounds and JVMs, from the crossings the step before found, until
 * one arm leads every other by more than its interval, one is left, or the steps run out. Each step is a search of its
 * own ({@link InterleavedSearch}): within a step every survivor is probed in every round, so the host's drift of a round
 * falls on all of them. When the survivors do not fit in memory together ({@link lab.plan.Turns}), a step searches them in turns,
 * each turn interleaved within itself, and its arms are judged together after the last turn, by their intervals.
 * <p>
 * Arms may come in groups (the pool sizes of one model each): then an arm is dropped only by its own group's leader,
 * a group with one arm left leaves the study (its answer is that of the step that settled it), and each group's best
 * is named; the groups still open share every step's rounds. Every group is searched in the first step, one of a
 * single arm too: its best is named with the capacity measured there.
 */
public final class Halving {

	/**
	 * One step.
	 *
	 * @param index from 0
	 * @param entries the arms searched in it
	 * @param results what its search found for each arm, over all its turns
	 * @param dropped the arms below the leader ({@link #below}; or that met the target at no load)
	 * @param turns the arms of each turn, in order: one turn when they all fit in memory at once
	 */
	public record Step(int index, List<String> entries, List<SearchSummary.EntryResult> results, List<String> dropped, List<List<String>> turns) {
	}

	/**
	 * The answer.
	 *
	 * @param best the arm with the highest capacity in the last step; null when no arm's capacity was found in it (every
	 *        probe INVALID, say) or the study was interrupted: a best is named only where it was measured
	 * @param capacity its capacity and interval there ({@link Interval#NONE} without a best)
	 * @param withinNoise the other arms of the last step whose intervals overlap the best's: they cannot be told from it
	 * @param beaten every arm the best beats: its capacity interval in the step that dropped it (or the last step)
	 * @param steps every step, in order
	 * @param interrupted whether the study stopped at the step it was in (the person stopped the run)
	 * @param unplaced without a best: each arm of the last step and why it has no capacity (how its search ended, or its
	 *        bracket's reason); empty otherwise
	 */
	public record Answer(String best, Interval capacity, List<String> withinNoise, Map<String, Interval> beaten, List<Step> steps,
			boolean interrupted, Map<String, String> unplaced, String group) {

		/** The answer of a study without groups. */
		public Answer(String best, Interval capacity, List<String> withinNoise, Map<String, Interval> beaten, List<Step> steps, boolean interrupted,
				Map<String, String> unplaced) {
			this(best, capacity, withinNoise, beaten, steps, interrupted, unplaced, "");
		}

		/** Whether a best was measured. */
		public boolean named() {
			return this.best != null;
		}

	}

	/** What a step of the study needs: a prober for its search of {@code entries} (the arms still in the study). */
	public interface Steps {

		InterleavedSearch.Prober prober(int step, List<String> entries) throws IOException;

		/**
		 * A prober for one turn of a step, {@code turn} of {@code turns} (from 0), over that turn's arms; the arms that
		 * cannot be started for it are excluded from {@code search} with the reason.
		 */
		default InterleavedSearch.Prober turn(int step, int turn, int turns, List<String> entries, InterleavedSearch search)
				throws IOException, InterruptedException {
			return prober(step, entries);
		}

		/** Whether the study must stop where it is (the run was interrupted): no further step or turn is searched. */
		default boolean stopped() {
			return false;
		}

	}

	private final List<String> arms;

	private final IntFunction<SearchSettings> settings;

	private final int maxSteps;

	private final Function<List<String>, List<List<String>>> turns;

	private final Function<String, String> group;

	/**
	 * @param settings each step's search settings, given the step's index and (through {@link #run}) the crossings found so far
	 * @param maxSteps at most this many steps
	 */
	public Halving(List<String> arms, IntFunction<SearchSettings> settings, int maxSteps) {
		this(arms, settings, maxSteps, survivors -> List.of(survivors));
	}

	/** @param turns the survivors of a step in the turns they are searched in ({@link lab.plan.Turns#of}) */
	public Halving(List<String> arms, IntFunction<SearchSettings> settings, int maxSteps, Function<List<String>, List<List<String>>> turns) {
		this(arms, settings, maxSteps, turns, arm -> "");
	}

	/** @param group each arm's group: an arm is dropped only by its group's leader, and each group's best is named */
	public Halving(List<String> arms, IntFunction<SearchSettings> settings, int maxSteps, Function<List<String>, List<List<String>>> turns,
			Function<String, String> group) {
		this.arms = List.copyOf(arms);
		this.settings = settings;
		this.maxSteps = maxSteps;
		this.turns = turns;
		this.group = group;
	}

	/** The study of arms without groups (or all in one): its one answer. */
	public Answer run(Steps steps) throws IOException, InterruptedException {
		List<Answer> answers = runGroups(steps);
		if (answers.size() != 1) {
			throw new IllegalStateException("a study of " + answers.size() + " groups has an answer per group: use runGroups");
		}
		return answers.get(0);
	}

	/** The study: an answer per group, in the order of the groups' first arms. */
	public List<Answer> runGroups(Steps steps) throws IOException, InterruptedException {
		List<String> survivors = new ArrayList<>(this.arms);
		List<Step> done = new ArrayList<>();
		Map<String, Interval> beaten = new LinkedHashMap<>();
		Map<String, Integer> starts = new LinkedHashMap<>();
		// Each group's results in the last step it was searched in (a settled group leaves the study with them).
		Map<String, List<SearchSummary.EntryResult>> last = new LinkedHashMap<>();
		this.arms.forEach(arm -> last.putIfAbsent(this.group.apply(arm), List.of()));
		List<String> open = new ArrayList<>(last.keySet());
		boolean interrupted = false;
		for (int index = 0; index < this.maxSteps && !(open = open(survivors, index)).isEmpty() && !(interrupted = steps.stopped()); index++) {
			// Each arm's bracket starts from the crossing the step before found for it, and steps by 1.5 from there.
			SearchSettings settings = this.settings.apply(index).from(starts);
			List<String> stepGroups = open;
			List<String> searching = survivors.stream().filter(arm -> stepGroups.contains(this.group.apply(arm))).toList();
			List<List<String>> turns = this.turns.apply(searching);
			List<SearchSummary.EntryResult> results = new ArrayList<>();
			List<SearchSummary.Ratio> paired = new ArrayList<>();
			List<String> searched = new ArrayList<>();
			for (int turn = 0; turn < turns.size(); turn++) {
				if (turn > 0 && steps.stopped()) {
					break;
				}
				// Arms are compared in pairs, not to one baseline: each capacity's own interval is what a fresh JVM narrows.
				InterleavedSearch search = new InterleavedSearch(turns.get(turn), settings, null);
				InterleavedSearch.Prober prober = steps.turn(index, turn, turns.size(), turns.get(turn), search);
				search.run(prober);
				// The record as the study judges it, written: the search may end (its budget spent) after its last progress.
				prober.progress(search);
				SearchSummary summary = SearchSummary.of(search.record("tune-step-" + (index + 1), turns.get(turn).get(0), null));
				results.addAll(summary.entries());
				paired.addAll(summary.pairs());
				searched.addAll(search.entries());
			}
			List<String> dropped = new ArrayList<>();
			for (String group : open) {
				List<SearchSummary.EntryResult> mine = results.stream().filter(entry -> this.group.apply(entry.entry()).equals(group)).toList();
				last.put(group, mine);
				SearchSummary.EntryResult leader = leader(mine);
				for (SearchSummary.EntryResult entry : mine) {
					if (entry.capacity().n() > 0 && Double.isFinite(entry.capacity().estimate())) {
						starts.put(entry.entry(), (int) Math.round(entry.capacity().estimate()));
					}
					boolean noneMet = entry.bracket() != null && entry.bracket().capacity() == 0 && entry.bracket().firstMissed() > 0;
					if (leader != null && entry != leader && (noneMet || below(entry, leader, paired))) {
						dropped.add(entry.entry());
						beaten.put(entry.entry(), entry.capacity());
					}
				}
			}
			done.add(new Step(index, List.copyOf(searched), List.copyOf(results), List.copyOf(dropped), turns));
			if (steps.stopped()) {
				// Interrupted during this step: its searches ended short; nothing of it is judged, and no later step runs.
				interrupted = true;
				break;
			}
			survivors.removeAll(dropped);
		}
		List<Answer> answers = new ArrayList<>();
		for (Map.Entry<String, List<SearchSummary.EntryResult>> group : last.entrySet()) {
			// A group still open when the person stopped the run names no best: its last step ended short or never ran.
			boolean stopped = interrupted && open.contains(group.getKey());
			answers.add(answer(group.getKey(), group.getValue(), stopped, done, survivors, beaten));
		}
		return List.copyOf(answers);
	}

	/**
	 * The groups step {@code index} searches: in the first, every group (a group of one arm is measured once, so its best
	 * has a capacity); later, those with more than one arm left.
	 */
	private List<String> open(List<String> survivors, int index) {
		Map<String, Integer> left = new LinkedHashMap<>();
		survivors.forEach(arm -> left.merge(this.group.apply(arm), 1, Integer::sum));
		return left.entrySet().stream().filter(e -> index == 0 || e.getValue() > 1).map(Map.Entry::getKey).toList();
	}

	/** One group's answer from its results in the last step it was searched in. */
	private Answer answer(String group, List<SearchSummary.EntryResult> lastResults, boolean interrupted, List<Step> done, List<String> survivors,
			Map<String, Interval> allBeaten) {
		Map<String, Interval> beaten = new LinkedHashMap<>();
		allBeaten.forEach((arm, interval) -> {
			if (this.group.apply(arm).equals(group)) {
				beaten.put(arm, interval);
			}
		});
		SearchSummary.EntryResult best = interrupted ? null : leader(lastResults);
		if (best == null) {
			Map<String, String> unplaced = new LinkedHashMap<>();
			for (SearchSummary.EntryResult entry : lastResults) {
				unplaced.put(entry.entry(), interrupted ? "the run was interrupted in step " + done.size() : why(entry));
			}
			return new Answer(null, Interval.NONE, List.of(), interrupted ? Map.of() : beaten, List.copyOf(done), interrupted, unplaced, group);
		}
		List<String> withinNoise = new ArrayList<>();
		for (SearchSummary.EntryResult entry : lastResults) {
			if (entry != best && survivors.contains(entry.entry())) {
				withinNoise.add(entry.entry());
			}
		}
		return new Answer(best.entry(), best.capacity(), List.copyOf(withinNoise), beaten, List.copyOf(done), false, Map.of(), group);
	}

	/**
	 * Whether {@code entry} lies below {@code leader}: by their ratio paired within the rounds they shared, where it has
	 * an interval (wholly below 1); else, as for arms of different turns, by their capacity intervals (wholly below).
	 */
	public static boolean below(SearchSummary.EntryResult entry, SearchSummary.EntryResult leader, List<SearchSummary.Ratio> paired) {
		for (SearchSummary.Ratio ratio : paired) {
			if (!ratio.interval().hasSpread()) {
				continue;
			}
			if (ratio.entry().equals(entry.entry()) && ratio.baseline().equals(leader.entry())) {
				return ratio.interval().high() < 1;
			}
			if (ratio.entry().equals(leader.entry()) && ratio.baseline().equals(entry.entry())) {
				return ratio.interval().low() > 1;
			}
		}
		return entry.capacity().whollyBelow(leader.capacity());
	}

	/** Why an arm has no capacity: how its search ended, else its bracket's reason ("INVALID twice at 25, never a bound"). */
	static String why(SearchSummary.EntryResult entry) {
		if (entry.ended() != null && !entry.ended().isBlank()) {
			return entry.ended();
		}
		if (entry.bracket() != null && entry.bracket().why() != null && !entry.bracket().why().isBlank()) {
			return entry.bracket().why();
		}
		return "no crossing of the target was placed";
	}

	/** The entry with the highest capacity estimate (one without a capacity never leads); null when none has one. */
	static SearchSummary.EntryResult leader(List<SearchSummary.EntryResult> entries) {
		return entries.stream().filter(e -> e.capacity().n() > 0 && Double.isFinite(e.capacity().estimate()))
			.max(Comparator.comparingDouble(e -> e.capacity().estimate())).orElse(null);
	}

}
