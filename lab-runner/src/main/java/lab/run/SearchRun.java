package lab.run;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import lab.analyse.judge.LevelResult;
import lab.analyse.judge.LevelResult.Verdict;
import lab.analyse.read.LevelFacts;
import lab.analyse.search.RoundProbe;
import lab.analyse.search.SearchRecord;
import lab.analyse.search.SearchSettings;
import lab.analyse.search.SearchSummary;
import lab.launch.Interruption;
import lab.launch.Service;
import lab.layout.LatencyTarget;
import lab.layout.LoadShape;
import lab.layout.ServiceDir;
import lab.plan.Arm;
import lab.plan.PlannedLevel;
import lab.plan.VariancePrior;
import lab.run.search.InterleavedSearch;
import lab.sample.CpuReference;
import lab.sample.IdleCheck;

/**
 * A capacity search of every variant of one arm at once ({@link InterleavedSearch}): each variant started, admitted and
 * warmed once ({@link ServiceStart#begin}) and kept alive while the others are probed, only one loaded at a time; probes are
 * ordinary judged levels ({@link ServiceDir#roundLevel}); a variant's later JVMs (the planned ones for the next share of
 * rounds, and one for a probe that broke its JVM) run in {@link ServiceDir#restart}. The search is written to
 * {@link lab.layout.RunDir#CAPACITY_SEARCH} after every probe, and each variant's bracket and crossing to its
 * {@link ServiceDir#CAPACITY}; the crossings also to {@link CapacityHistory}, where the next run on this host starts.
 */
final class SearchRun implements InterleavedSearch.Prober {

	/** A refining probe's distance from the estimate, below or above it. */
	static final double SPREAD_PERCENT = 5;

	/** How many of the host's earlier runs of the same search its report draws beside it. */
	static final int EARLIER_DRAWN = 4;

	/** Rounds that may be run again in all because their reference moved. */
	static final int MAX_RERUNS = 2;

	/** How long a probed JVM may stay busy with no load before it is stopped and replaced. */
	static final int IDLE_WAIT_SECONDS = 15;

	/**
	 * How long a freshly warmed JVM may take to fall idle before the search goes on regardless: one still collecting or
	 * compiling shares the service's core with the next probe, of another entry (a fresh run here lost two probes so).
	 */
	static final int WARM_IDLE_WAIT_SECONDS = 60;

	/** Busy: above this share of a core in every second of that wait. */
	static final double IDLE_BUSY_PERCENT = 50;

	/** A closed search warms each JVM at this share of where its knee is expected, when that is below the scenario's warm-up users. */
	static final double WARM_BELOW_KNEE = 0.8;

	final Harness harness;

	final Arm arm;

	private final Service downstream;

	private final NotRun.Recorder notRun;

	final Map<String, SearchEntry> entries = new LinkedHashMap<>();

	final LoadShape shape;

	final LatencyTarget target;

	private String baseline;

	private String twin;

	private InterleavedSearch search;

	/** When the search began (System.nanoTime): its time budget counts from here. */
	long began;

	/** What starting and warming each first JVM took, seconds. */
	final List<Double> startSeconds = new ArrayList<>();

	/** The settings search's steps and turns, when this search is one ({@code --scenario tune}); null otherwise. */
	private TuneStudy tune;

	/** The tune study's step (from 0), -1 outside one: its probes' and restarts' directories are numbered apart by it. */
	private int step() {
		return (this.tune != null) ? this.tune.step() : -1;
	}

	/** Where the last run on this host put each entry's crossing. */
	private CapacityHistory history;

	SearchRun(Harness harness, Arm arm, Service downstream, NotRun.Recorder notRun) {
		this.harness = harness;
		this.arm = arm;
		this.downstream = downstream;
		this.notRun = notRun;
		this.shape = harness.plan().scenario().model();
		this.target = harness.plan().scenario().target();
	}

	/** Starts every variant of the run in this arm (and the baseline's A/A twin), searches them round by round, stops them. */
	void run() throws IOException, InterruptedException {
		this.began = System.nanoTime();
		var scenario = this.harness.plan().scenario();
		for (String module : scenario.variants()) {
			String label = this.arm.label(module);
			this.entries.put(label, new SearchEntry(module, this.harness.plan().out().resolve(label)));
		}
		this.baseline = this.arm.label(scenario.baselineVariant());
		if (scenario.aa()) {
			this.twin = Arm.twin(this.baseline);
			this.entries.put(this.twin, new SearchEntry(scenario.baselineVariant(), this.harness.plan().out().resolve(this.twin)));
		}
		this.history = new CapacityHistory(this.harness.plan().out().toAbsolutePath().getParent());
		// The host's CPU reference now, before any JVM loads the core: a shipped crossing bound by the core is scaled to it
		// (timed on this machine: for a service elsewhere, --target, only where its bracket starts moves with it).
		double referenceMs = CpuReference.time(this.harness.plan().javaHome().resolve("bin/java"), this.harness.cpus().serviceTaskset());
		BracketStarts starts = BracketStarts.of(this.history.last(scenario.name(), this.arm.name(), this.target), this.entries.keySet(),
				label -> this.arm.label(this.entries.get(label).module), referenceMs);
		// The intervals' prior: each variant's spread between JVMs as the lab ships it, updated by this host's own runs.
		// From earlier crossings the bracket steps by 1.5: the knee is near, and a doubling would overshoot it.
		VariancePrior prior = this.history.prior(scenario.name(), this.arm.name(), this.target, VariancePrior.SHIPPED);
		this.search = new InterleavedSearch(List.copyOf(this.entries.keySet()),
				SearchSettings.of(scenario, SPREAD_PERCENT, MAX_RERUNS, System.nanoTime()).from(starts.users()).withPrior(prior)
					.withEarlier(this.history.earlier(scenario.name(), this.arm.name(), this.target, this.baseline, EARLIER_DRAWN)), this.baseline);
		say(String.format(Locale.ROOT, "lab: capacity search of %d variants round by round (%s), baseline %s%s; the refining rounds shared out among "
				+ "each one's JVMs; starting and warming each", this.entries.size(), String.join(", ", this.entries.keySet()), this.baseline,
				(this.twin != null) ? ", A/A twin " + this.twin : ""));
		starts.lines().forEach(this::say);
		say("lab: the intervals' JVM level, until this run's JVMs say more: " + priorText(prior));
		// A tune study whose arms do not fit in memory together starts each arm in its turn, not all of them now.
		this.tune = (scenario.halvingSteps() != null) ? new TuneStudy(this) : null;
		List<List<String>> turns = (this.tune != null) ? this.tune.turns(List.copyOf(this.entries.keySet())) : List.of();
		try {
			for (Map.Entry<String, SearchEntry> e : this.entries.entrySet()) {
				if (Interruption.requested() || turns.size() > 1) {
					break;
				}
				long started = System.nanoTime();
				Optional<ServiceStart.Live> live = begin(e.getKey(), e.getValue(), e.getValue().dir);
				this.startSeconds.add((System.nanoTime() - started) / 1e9);
				if (live.isEmpty()) {
					this.search.exclude(e.getKey(), "it did not start, pass its contract check or warm up");
					continue;
				}
				e.getValue().live = live.get();
			}
			if (Interruption.requested()) {
				return;
			}
			if (scenario.halvingSteps() != null) {
				// Each step writes its own record; the search of every arm that started them is only their settings.
				this.tune.run(scenario.halvingSteps(), this.search.settings(), turns.size() > 1);
			}
			else {
				progress(this.search);
				this.search.run(this);
			}
		}
		finally {
			for (SearchEntry entry : this.entries.values()) {
				if (entry.live != null) {
					entry.live.service().close();
				}
			}
			if (!this.search.probes().isEmpty()) {
				progress(this.search);
				summarise();
			}
		}
	}

	/**
	 * Starts, admits and warms an entry's JVM ({@link #warmupUsers}), then waits up to {@value #WARM_IDLE_WAIT_SECONDS} s
	 * for it to fall idle (see there).
	 */
	Optional<ServiceStart.Live> begin(String label, SearchEntry entry, Path dir) throws IOException, InterruptedException {
		PlannedLevel first = PlannedLevel.of(this.shape.level(this.search.settings().start()));
		Optional<ServiceStart.Live> live = new ServiceStart(this.harness).begin(entry.module, this.arm, label, this.downstream, dir, List.of(first),
				this.notRun, warmupUsers(label));
		String busy = live.isEmpty() ? null : IdleCheck.busyAfter(live.get().service(), WARM_IDLE_WAIT_SECONDS, IDLE_BUSY_PERCENT);
		if (busy != null) {
			say("lab: " + label + " after its warm-up: " + busy + "; the next probe may find the service's core shared (core-strangers.csv)");
		}
		return live;
	}

	/**
	 * The users an entry's JVM warms up at: the scenario's, or {@value #WARM_BELOW_KNEE} of where its knee is expected
	 * (its capacity so far in this search, else the crossing its bracket starts from), whichever is lower, in a closed
	 * search. Warmed past its knee (1,000 users for a platform pool that serves 380), a JVM queues, may run its heap out
	 * and starts its first probe with a backlog; the JIT compiles the same paths below it.
	 */
	int warmupUsers(String label) {
		int users = this.harness.plan().scenario().warmupUsers();
		if (this.shape != LoadShape.CLOSED) {
			return users;
		}
		double knee = (this.search.probes().isEmpty()) ? Double.NaN : SearchSummary.estimate(record(), label);
		if (!Double.isFinite(knee)) {
			Integer start = this.search.settings().starts().get(label);
			knee = (start != null) ? start : Double.NaN;
		}
		return Double.isFinite(knee) ? Math.max(1, Math.min(users, (int) Math.round(WARM_BELOW_KNEE * knee))) : users;
	}

	@Override
	public InterleavedSearch.Outcome probe(String label, int load, int round, int position, int of) throws IOException, InterruptedException {
		SearchEntry entry = this.entries.get(label);
		if (Interruption.requested() || entry.live == null) {
			// Interrupted; or (never, as the search replaces a broken JVM before its next probe) no JVM to probe.
			return null;
		}
		PlannedLevel level = PlannedLevel.of(this.shape.level(load));
		String id = ServiceDir.roundLevel(level.id(), (step() > 0) ? 100 * step() + round : round);
		say(String.format(Locale.ROOT, "lab: round %d, %d of %d: %s %s", round, position, of, label, id));
		Path warmup = entry.live.warmup();
		Service service = entry.live.service();
		LevelSession.Outcome outcome = new LevelSession(this.harness).run(service, this.downstream, level, id, 1, warmup, entry.firstAfterWarmup);
		entry.firstAfterWarmup = false;
		LevelFacts facts = outcome.facts();
		if (facts.interruptedAtMs() != null || outcome.result() == null) {
			return null;
		}
		if (Boolean.FALSE.equals(facts.downstreamAlive())) {
			say("lab: capacity search stopped: the downstream died during " + label + " " + id);
			return null;
		}
		LevelResult result = outcome.result();
		double latency = result.latency(this.target);
		RoundProbe probe = new RoundProbe(round, position, label, load, result.verdict(), result.meetsTarget(),
				Double.isFinite(latency) ? latency : null, result.reasons().isEmpty() ? "" : result.reasons().get(0),
				this.harness.plan().out().relativize(service.dir().resolve(id)).toString(), null, result.limit());
		boolean broken = outcome.verdict() == Verdict.FAILED || !facts.serviceAlive();
		String busy = broken ? null : IdleCheck.busyAfter(service, IDLE_WAIT_SECONDS, IDLE_BUSY_PERCENT);
		if (busy != null) {
			// Judged as measured, but its JVM did not fall idle: it would share the service's core under the next probes
			// (docs/findings.md: the open map's INVALID probes).
			say("lab: " + label + " " + busy + ": stopped now, a fresh JVM at its next probe");
			broken = true;
		}
		if (broken) {
			// Stopped now, not at its next turn: a JVM in a GC death spiral burns the service's core under the others' probes.
			service.close();
			entry.live = null;
		}
		return new InterleavedSearch.Outcome(probe, broken);
	}

	@Override
	public boolean restart(String label, int jvm, boolean planned) throws IOException, InterruptedException {
		SearchEntry entry = this.entries.get(label);
		if (entry.live != null) {
			entry.live.service().close();
			entry.live = null;
		}
		if (Interruption.requested()) {
			return false;
		}
		say("lab: " + label + " gets a fresh JVM, its " + SearchEntry.ordinal(jvm) + (planned ? " (its share of the refining rounds on a JVM of its own)"
				: " (its last probe broke the one before, stopped then)") + ": the others wait, warm");
		Optional<ServiceStart.Live> live = begin(label, entry, entry.dir.resolve(ServiceDir.restart((step() > 0) ? 10 * step() + jvm : jvm)));
		live.ifPresent(l -> {
			entry.live = l;
			entry.firstAfterWarmup = true;
		});
		return live.isPresent();
	}

	@Override
	public List<Double> startSeconds() {
		return List.copyOf(this.startSeconds);
	}

	@Override
	public InterleavedSearch.Reference reference() throws InterruptedException {
		long[] ticks = CpuReference.stealAndTotalTicks();
		double ms = CpuReference.time(this.harness.plan().javaHome().resolve("bin/java"), this.harness.cpus().serviceTaskset());
		return new InterleavedSearch.Reference(ms, ticks[0], ticks[1]);
	}

	@Override
	public void progress(InterleavedSearch search) throws IOException {
		// A tune search's steps are searches of their own: the one that reports is the current.
		this.search = search;
		record().write(this.harness.plan().out());
	}

	/** The search of the current step (a tune study's steps are searches of their own). */
	InterleavedSearch search() {
		return this.search;
	}

	@Override
	public void say(String line) {
		this.harness.out().println(line);
	}

	@Override
	public double secondsLeft() {
		if (step() >= 0) {
			return this.tune.secondsLeft();
		}
		Double minutes = this.harness.plan().scenario().searchMinutes();
		return (minutes == null) ? Double.POSITIVE_INFINITY : minutes * 60 - (System.nanoTime() - this.began) / 1e9;
	}

	/** The prior as a run states it: each entry's spread between JVMs, where the figures come from, whether this host's runs updated them. */
	private String priorText(VariancePrior prior) {
		List<String> known = new ArrayList<>();
		for (String label : this.entries.keySet()) {
			known.add(String.format(Locale.ROOT, "%s %.1f%%", label, 100 * Math.sqrt(prior.variance(label))));
		}
		int updated = prior.about().indexOf("; updated by");
		return "each variant's spread between JVMs, " + String.join(", ", known) + " (the lab's measured ones, capacity-variance.json, "
				+ String.format(Locale.ROOT, "%.1f%% for a service it does not ship)", 100 * prior.otherSd())
				+ ((updated >= 0) ? prior.about().substring(updated) : "; this host has fewer than " + CapacityHistory.HOST_RUNS_FROM
						+ " runs of each to update them");
	}

	/** The entry the search's ratios are to. */
	String baseline() {
		return this.baseline;
	}

	/**
	 * The ratios from here on to {@code label}: a tune's search on fresh JVMs states them to the first model's best
	 * when the run's baseline is not a best (the db scenario's Tomcat + VT at Boot's pool, beaten by its pool of 200).
	 */
	void ratiosTo(String label) {
		this.baseline = label;
	}

	/** The run's clock: a search without a time budget has costs too. */
	@Override
	public double seconds() {
		return System.nanoTime() / 1e9;
	}

	private SearchRecord record() {
		String group = (step() < 0) ? this.arm.name()
				: this.arm.name() + "-step" + (step() + 1) + ((this.tune.turns() > 1) ? "-turn" + (this.tune.turn() + 1) : "");
		return this.search.record(group, this.search.entries().contains(this.baseline) ? this.baseline : this.search.entries().get(0),
				(this.twin != null && this.search.entries().contains(this.twin)) ? this.twin : null);
	}

	/** Each variant's capacity with its interval, its ratio to the baseline, the noise floor; capacity.json per variant. */
	private void summarise() throws IOException {
		new SearchEnd(this.search, record(), this.target, this.shape, this.twin, this::say)
			.write(label -> this.entries.get(label).dir, this.history, this.harness.plan().scenario().name(), this.arm.name(),
					RunManifest.git(this.harness.plan().root()));
	}

}
