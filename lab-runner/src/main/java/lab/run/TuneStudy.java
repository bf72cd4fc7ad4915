package lab.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import lab.analyse.LevelJson;
import lab.analyse.search.Interval;
import lab.analyse.search.SearchSummary;
import lab.analyse.search.SearchSettings;
import lab.launch.Interruption;
import lab.layout.LoadShape;
import lab.layout.RunDir;
import lab.layout.ServiceDir;
import lab.layout.TuneAnswer;
import lab.plan.OwnService;
import lab.plan.Turns;
import lab.run.search.Halving;
import lab.run.search.InterleavedSearch;

/**
 * The settings search of a capacity search ({@code --scenario tune}): successive halving over its arms in steps
 * ({@link lab.run.search.Halving}), each step's share of the time budget, the turns of arms that do not fit in memory
 * at once, and the answer written to {@link lab.layout.RunDir#TUNE}. The probing is its {@link SearchRun}'s: this class
 * only says which arms run when, and for how long.
 */
final class TuneStudy {

	private final SearchRun run;

	TuneStudy(SearchRun run) {
		this.run = run;
	}

	/** The step (from 0), -1 before the first: its probes' and restarts' directories are numbered apart by it. */
	int step() {
		return this.step;
	}

	/** The step's turn (from 0). */
	int turn() {
		return this.turn;
	}

	/** How many turns the step has. */
	int turns() {
		return this.turns;
	}

	/** Seconds left of the current turn's share of the budget. */
	double secondsLeft() {
		return (this.turnEnds - System.nanoTime()) / 1e9;
	}

	/**
	 * A tune search: successive halving over the variants ({@link lab.run.search.Halving}), each step a search of the
	 * survivors with its share of the time left (the first half of it, each later one an equal share of the rest), more
	 * rounds and JVMs in later steps;
	 * the arms dropped are stopped. The answer goes to the console and {@link lab.layout.RunDir#TUNE}; each step's
	 * search to its own file ({@code capacity-search-<arm>-step<k>.json}), rendered like any search.
	 */
	void run(int steps, SearchSettings base, boolean inTurns) throws IOException, InterruptedException {
		Double minutes = this.run.harness.plan().scenario().searchMinutes();
		long end = this.run.began + (long) (((minutes != null) ? minutes : 60) * 60e9);
		// The arms that started, passed their check and warmed up (the others were recorded as not run); in turns, every
		// arm, each started in its turn.
		List<String> started = inTurns ? List.copyOf(this.run.entries.keySet())
				: this.run.entries.entrySet().stream().filter(e -> e.getValue().live != null).map(Map.Entry::getKey).toList();
		if (started.size() < 2) {
			this.run.say("lab: tune: fewer than two arms started; nothing to compare");
			return;
		}
		// Arms crossed from the file's arms with its axes are judged within their group: a best per model.
		Halving halving = new Halving(started, step -> base.forStep(step, steps), steps, this::turns,
				label -> this.run.harness.plan().ownArm(label).map(arm -> (arm.group() != null) ? arm.group() : "").orElse(""));
		List<Halving.Answer> answers = halving.runGroups(new Halving.Steps() {

			@Override
			public InterleavedSearch.Prober prober(int step, List<String> entries) {
				throw new IllegalStateException("a tune step is searched turn by turn");
			}

			@Override
			public InterleavedSearch.Prober turn(int step, int turn, int turns, List<String> entries, InterleavedSearch search)
					throws IOException, InterruptedException {
				return TuneStudy.this.turn(step, turn, turns, entries, search, steps, end);
			}

			@Override
			public boolean stopped() {
				return Interruption.requested();
			}

		});
		answers.forEach(this::say);
		// The step stays at the confirmation's (or the last one's): the record the run ends with is that step's.
		Map<String, TuneAnswer.Confirmation> confirmations = confirm(answers, steps, base, end);
		Halving.Answer any = answers.get(0);
		List<TuneAnswer.Step> stepsDone = any.steps().stream().map(s -> new TuneAnswer.Step(s.index() + 1, s.entries(), s.dropped(), s.turns())).toList();
		TuneAnswer file;
		if (answers.size() == 1) {
			file = new TuneAnswer(this.run.target, any.best(), any.capacity().bounds(), any.withinNoise(), bounds(any.beaten()), any.interrupted(),
					any.unplaced(), stepsDone, List.of(), confirmation(confirmations, any));
		}
		else {
			Map<String, TuneAnswer.Bounds> beaten = new LinkedHashMap<>();
			Map<String, String> unplaced = new LinkedHashMap<>();
			List<TuneAnswer.Group> groups = new ArrayList<>();
			for (Halving.Answer answer : answers) {
				beaten.putAll(bounds(answer.beaten()));
				unplaced.putAll(answer.unplaced());
				groups.add(new TuneAnswer.Group(answer.group(), answer.best(), answer.capacity().bounds(), answer.withinNoise(), bounds(answer.beaten()),
						answer.unplaced(), confirmation(confirmations, answer)));
			}
			file = new TuneAnswer(this.run.target, null, TuneAnswer.Bounds.NONE, List.of(), beaten, answers.stream().anyMatch(Halving.Answer::interrupted),
					unplaced, stepsDone, groups, null);
		}
		LevelJson.json.writeValue(this.run.harness.plan().out().resolve(RunDir.TUNE).toFile(), file);
	}

	/** The answer's confirmation; none where it named no best (an interrupted study: the map refuses a null key). */
	static TuneAnswer.Confirmation confirmation(Map<String, TuneAnswer.Confirmation> confirmations, Halving.Answer answer) {
		return (answer.best() != null) ? confirmations.get(answer.best()) : null;
	}

	/**
	 * The study's bests on fresh JVMs (every JVM stopped, each best started anew, one JVM each, with the first step's
	 * rounds), searched together from their crossings; in a study without groups, the arms within noise of the best beside
	 * it; and each group's arm at the file's {@code search.defaults}, when another, as one more arm of its group. A best is confirmed where its capacity there overlaps the study's and no arm of its group lies above it there (their ratio paired within the fresh search's rounds, {@link Halving#below}).
	 * Empty when no best was named, the run was interrupted or no time is left.
	 */
	private Map<String, TuneAnswer.Confirmation> confirm(List<Halving.Answer> answers, int steps, SearchSettings base, long end)
			throws IOException, InterruptedException {
		List<String> finalists = new ArrayList<>();
		Map<String, String> groupOf = new LinkedHashMap<>();
		for (Halving.Answer answer : answers) {
			if (answer.named()) {
				finalists.add(answer.best());
				groupOf.put(answer.best(), answer.group());
				if (answers.size() == 1) {
					answer.withinNoise().forEach(near -> {
						finalists.add(near);
						groupOf.put(near, answer.group());
					});
				}
			}
		}
		if (finalists.isEmpty() || Interruption.requested() || end - System.nanoTime() <= 0) {
			return Map.of();
		}
		// Beside each group's best, its arm at the library's defaults (the file's search.defaults), when another.
		Map<String, String> atDefaults = atDefaults(answers, finalists);
		atDefaults.forEach((arm, group) -> {
			finalists.add(arm);
			groupOf.put(arm, group);
		});
		// Each finalist's bracket starts from its crossing in the last step it ran in.
		Map<String, Integer> starts = new LinkedHashMap<>();
		for (Halving.Step step : answers.get(0).steps()) {
			for (SearchSummary.EntryResult entry : step.results()) {
				if (finalists.contains(entry.entry()) && entry.capacity().n() > 0 && Double.isFinite(entry.capacity().estimate())) {
					starts.put(entry.entry(), (int) Math.round(entry.capacity().estimate()));
				}
			}
		}
		for (SearchEntry entry : this.run.entries.values()) {
			if (entry.live != null) {
				entry.live.service().close();
				entry.live = null;
			}
		}
		// Ratios to a best: the run's baseline when it is one, else the first group's (finalists lists the bests first).
		if (answers.stream().noneMatch(answer -> answer.named() && answer.best().equals(this.run.baseline()))) {
			this.run.ratiosTo(finalists.get(0));
		}
		InterleavedSearch search = new InterleavedSearch(finalists, base.forStep(0, steps).from(starts));
		InterleavedSearch.Prober prober = turn(steps, 0, 1, finalists, search, steps, end);
		search.run(prober);
		prober.progress(search);
		Map<String, Interval> fresh = new LinkedHashMap<>();
		SearchSummary freshSummary = SearchSummary.of(search.record("tune-step-" + (steps + 1), finalists.get(0), null));
		freshSummary.entries().forEach(entry -> fresh.put(entry.entry(), entry.capacity()));
		atDefaults.forEach((arm, group) -> {
			Interval interval = fresh.get(arm);
			if (interval != null && !Interruption.requested()) {
				this.run.say(String.format(Locale.ROOT, "lab: tune: %s at the defaults on fresh JVMs, beside its group's best: %s", arm, interval.asLoad()));
			}
		});
		Map<String, TuneAnswer.Confirmation> confirmations = new LinkedHashMap<>();
		for (Halving.Answer answer : answers) {
			Interval again = answer.named() ? fresh.get(answer.best()) : null;
			if (again == null || Interruption.requested()) {
				continue;
			}
			boolean found = again.n() > 0 && Double.isFinite(again.estimate());
			boolean agrees = found && !again.whollyBelow(answer.capacity()) && !answer.capacity().whollyBelow(again);
			// Led by none of its group's arms there: by their ratio paired within the fresh search's rounds (Halving.below).
			boolean leads = found && fresh.keySet().stream().noneMatch(arm -> !arm.equals(answer.best()) && answer.group().equals(groupOf.get(arm))
					&& Halving.below(freshSummary.entry(answer.best()), freshSummary.entry(arm), freshSummary.pairs()));
			confirmations.put(answer.best(), new TuneAnswer.Confirmation(again.bounds(), agrees && leads));
			this.run.say(String.format(Locale.ROOT, "lab: tune: %s on fresh JVMs: %s, %s", answer.best(), again.asLoad(),
					!found ? "not confirmed: no capacity was found there" : !agrees ? "not confirmed: its interval there does not overlap the study's "
							+ answer.capacity().asLoad()
							: !leads ? "not confirmed: an arm of its group lies above it there (their ratio paired within rounds)" : "confirmed (it overlaps the study's "
									+ answer.capacity().asLoad() + " and no arm of its group leads it)"));
		}
		return confirmations;
	}

	/**
	 * Each named group's arm at the service file's {@code search.defaults} (arm to group), where that arm is not already
	 * a finalist: run on fresh JVMs beside the bests, so the answer says what a best gains over the library's defaults.
	 */
	private Map<String, String> atDefaults(List<Halving.Answer> answers, List<String> finalists) {
		Map<String, String> arms = new LinkedHashMap<>();
		OwnService own = this.run.harness.plan().own();
		if (own == null || own.search() == null) {
			return arms;
		}
		for (Halving.Answer answer : answers) {
			if (!answer.named()) {
				continue;
			}
			for (String label : this.run.entries.keySet()) {
				Optional<OwnService.ServiceArm> arm = this.run.harness.plan().ownArm(label);
				String group = arm.map(a -> (a.group() != null) ? a.group() : "").orElse("");
				if (arm.isPresent() && group.equals(answer.group()) && own.search().atDefaults(arm.get()) && !finalists.contains(label)) {
					arms.put(label, group);
				}
			}
		}
		return arms;
	}

	private static Map<String, TuneAnswer.Bounds> bounds(Map<String, Interval> intervals) {
		Map<String, TuneAnswer.Bounds> bounds = new LinkedHashMap<>();
		intervals.forEach((arm, interval) -> bounds.put(arm, interval.bounds()));
		return bounds;
	}

	/** A group's answer on the console ("best within ..." or why none), each arm it beats on a line of its own. */
	private void say(Halving.Answer answer) {
		String unit = (this.run.shape == LoadShape.OPEN) ? "requests/s" : "users";
		String of = answer.group().isEmpty() ? "" : " of " + answer.group();
		if (answer.named()) {
			this.run.say(String.format(Locale.ROOT, "lab: tune: best%s within %s: %s, %s%s", of, this.run.target.describe(), answer.best(),
					answer.capacity().asLoad(), answer.withinNoise().isEmpty() ? "; it leads every other arm" + of + " beyond its interval"
							: "; within noise of it (intervals overlap): " + String.join(", ", answer.withinNoise())));
			answer.beaten().forEach((arm, interval) -> this.run.say(String.format(Locale.ROOT, "lab: tune: beats %s, %s %s (below the leader: their paired ratio, or its interval, wholly below)",
					arm, interval.asLoad(), unit)));
		}
		else {
			this.run.say("lab: tune: no best named" + of + ": " + (answer.interrupted() ? "the run was interrupted in step " + answer.steps().size()
					: "no arm's capacity within " + this.run.target.describe() + " was found") + "; " + String.join("; ",
							answer.unplaced().entrySet().stream().map(e -> e.getKey() + ": " + e.getValue()).toList()));
		}
	}

	/**
	 * One turn of a tune step: its share of the step's time (the first step half the time left, each later one an equal
	 * share of the rest, split evenly among the step's turns, each given at least its share); the arms not in it stopped
	 * (their memory back), the others started when not running (an arm that cannot be is excluded from the turn's search).
	 */
	private InterleavedSearch.Prober turn(int step, int turn, int turns, List<String> entries, InterleavedSearch search, int steps, long end)
			throws IOException, InterruptedException {
		if (turn == 0) {
			this.step = step;
			// The confirmation on fresh JVMs after the last step is a step of its own: an equal share of what is left.
			this.stepEnds = System.nanoTime() + (end - System.nanoTime()) / ((step == 0) ? 2 : (steps + 1 - step));
			this.turnShare = (this.stepEnds - System.nanoTime()) / turns;
		}
		this.turn = turn;
		this.turns = turns;
		// An equal share of the step each, even when a turn before ran over (its bracket rounds finish whatever the
		// budget): the arms of a later turn are not searched with less time than those of the first.
		this.turnEnds = System.nanoTime() + Math.max(this.turnShare, (this.stepEnds - System.nanoTime()) / (turns - turn));
		for (Map.Entry<String, SearchEntry> e : this.run.entries.entrySet()) {
			if (!entries.contains(e.getKey()) && e.getValue().live != null) {
				e.getValue().live.service().close();
				e.getValue().live = null;
			}
		}
		String heading = (step == steps) ? "lab: tune: the best on fresh JVMs" : String.format(Locale.ROOT, "lab: tune step %d of at most %d", step + 1, steps);
		long minutes = Math.round((this.turnEnds - System.nanoTime()) / 60e9);
		this.run.say(String.format(Locale.ROOT, "%s%s: %s, %d minute%s", heading,
				(turns > 1) ? String.format(Locale.ROOT, ", turn %d of %d (the arms do not fit in memory at once)", turn + 1, turns) : "",
				String.join(", ", entries), minutes, (minutes == 1) ? "" : "s"));
		if (step > 0 || turn > 0) {
			// This turn's search counts the starts made for it (where its minutes went), not those of the searches before.
			this.run.startSeconds.clear();
		}
		for (String label : entries) {
			SearchEntry entry = this.run.entries.get(label);
			if (entry.live != null || Interruption.requested()) {
				continue;
			}
			// Its first JVM in the arm's own directory; a later one (after a turn of others) in a restart directory of this step.
			Path dir = Files.exists(entry.dir.resolve(ServiceDir.PID)) ? entry.dir.resolve(ServiceDir.restart(10 * step + 1)) : entry.dir;
			long started = System.nanoTime();
			Optional<ServiceStart.Live> live = this.run.begin(label, entry, dir);
			this.run.startSeconds.add((System.nanoTime() - started) / 1e9);
			if (live.isEmpty()) {
				search.exclude(label, "it did not start, pass its contract check or warm up");
				continue;
			}
			entry.live = live.get();
			entry.firstAfterWarmup = true;
		}
		return this.run;
	}

	/**
	 * The arms in the turns their memory allows ({@link lab.plan.Turns}): each needs its heap's ceiling as its JVM
	 * options set it, and the machine's available memory less the injector's and the downstream's heaps and a GiB is
	 * shared out; a remote service needs none here.
	 */
	List<List<String>> turns(List<String> arms) {
		Map<String, List<String>> options = new LinkedHashMap<>();
		ServiceStart start = new ServiceStart(this.run.harness);
		arms.forEach(label -> options.put(label, start.flags(this.run.entries.get(label).module, this.run.arm)));
		Optional<Turns.Plan> memory = Turns.plan(options);
		if (memory.isEmpty()) {
			return List.of(arms);
		}
		List<List<String>> turns = memory.get().turns();
		if (turns.size() > 1 && !this.turnsSaid) {
			this.turnsSaid = true;
			this.run.say(String.format(Locale.ROOT, "lab: tune: the arms need %,d MiB at most together (each its heap's ceiling and %d MiB), %,d MiB are free for them "
					+ "(%,d available less %,d for the injector's and the downstream's heaps and the system): they run in %d turns, each interleaved within itself",
					memory.get().total() >> 20, Turns.NON_HEAP_MIB, memory.get().budget() >> 20, memory.get().available() >> 20,
					memory.get().reserve() >> 20, turns.size()));
		}
		return turns;
	}

	private boolean turnsSaid;

	private int step = -1;

	private int turn;

	private int turns = 1;

	/** When the turn's share of the budget ends (System.nanoTime). */
	private long turnEnds;

	/** Each turn's share of its step, nanoseconds. */
	private long turnShare;

	/** When the step's share of the budget ends (System.nanoTime). */
	private long stepEnds;

}
