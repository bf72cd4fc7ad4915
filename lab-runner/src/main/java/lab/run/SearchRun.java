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
import lab.analyse.LevelResult;
import lab.analyse.LevelResult.Verdict;
import lab.analyse.judge.Limit;
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
import lab.run.search.InterleavedSearch;
import lab.sample.CpuReference;

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


	/** Rounds that may be run again in all because their reference moved. */
	static final int MAX_RERUNS = 2;

	/** How long a probed JVM may stay busy with no load before it is stopped and replaced. */
	static final int IDLE_WAIT_SECONDS = 15;

	/** Busy: above this share of a core in every second of that wait. */
	static final double IDLE_BUSY_PERCENT = 50;

	/** One entry of the search: its module, its directory, its live service and how many lives it has had. */
	static final class Entry {

		final String module;

		final Path dir;

		ServiceStart.Live live;

		boolean firstAfterWarmup = true;

		Entry(String module, Path dir) {
			this.module = module;
			this.dir = dir;
		}

	}

	final Harness harness;

	final Arm arm;

	private final Service downstream;

	private final NotRun.Recorder notRun;

	final Map<String, Entry> entries = new LinkedHashMap<>();

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
			this.entries.put(label, new Entry(module, this.harness.plan().out().resolve(label)));
		}
		this.baseline = this.arm.label(scenario.baselineVariant());
		if (scenario.aa()) {
			this.twin = Arm.twin(this.baseline);
			this.entries.put(this.twin, new Entry(scenario.baselineVariant(), this.harness.plan().out().resolve(this.twin)));
		}
		List<Integer> firsts = (this.shape == LoadShape.OPEN) ? scenario.ratesPerSecond() : scenario.users();
		long seed = System.nanoTime();
		this.history = new CapacityHistory(this.harness.plan().out().toAbsolutePath().getParent());
		Map<String, CapacityHistory.Crossing> last = this.history.last(scenario.name(), this.arm.name(), this.target.text());
		Map<String, Integer> starts = new LinkedHashMap<>();
		for (Map.Entry<String, Entry> e : this.entries.entrySet()) {
			String label = e.getKey();
			// The A/A twin is the baseline's variant: it starts where the baseline's last crossing was.
			CapacityHistory.Crossing crossing = last.getOrDefault(label, last.get(this.arm.label(e.getValue().module)));
			if (crossing != null && crossing.users() >= 1) {
				starts.put(label, (int) Math.round(Double.parseDouble(lab.analyse.search.Interval.figure(crossing.users(), false))));
			}
		}
		// From earlier crossings the bracket steps by 1.5: the knee is near, and a doubling would overshoot it.
		this.search = new InterleavedSearch(List.copyOf(this.entries.keySet()), new SearchSettings(firsts.get(0), scenario.searchMax(),
				scenario.searchResolution(), scenario.rounds(), SPREAD_PERCENT, scenario.referenceMovedPercent(), MAX_RERUNS, seed,
				this.target.maxMs(), scenario.delayMs(), scenario.jvms(), 2, Map.of()).from(starts));
		say(String.format(Locale.ROOT, "lab: capacity search of %d variants round by round (%s), baseline %s%s; %d JVMs each, the refining rounds shared "
				+ "out among them; starting and warming each", this.entries.size(), String.join(", ", this.entries.keySet()), this.baseline,
				(this.twin != null) ? ", A/A twin " + this.twin : "", scenario.jvms()));
		if (!starts.isEmpty()) {
			// The A/A twin starts where its baseline's crossing was: it is named by the baseline's.
			java.util.function.Function<String, CapacityHistory.Crossing> crossing = label -> last.getOrDefault(label, last.get(this.baseline));
			List<String> own = starts.keySet().stream().filter(label -> !CapacityHistory.shipped(crossing.apply(label))).toList();
			List<String> shipped = starts.keySet().stream().filter(label -> CapacityHistory.shipped(crossing.apply(label))).toList();
			if (!own.isEmpty()) {
				say("lab: brackets start from the last run's crossings on this host, steps of 1.5: " + String.join(", ", own.stream()
					.map(label -> label + " " + starts.get(label) + " (commit " + shortCommit(crossing.apply(label).commit()) + ")").toList()));
			}
			if (!shipped.isEmpty()) {
				say("lab: this host has no crossings of its own for " + String.join(", ", shipped) + ": their brackets start from the crossings the lab "
						+ "ships (this project's 2-core machine, commit " + shortCommit(crossing.apply(shipped.get(0)).commit()) + "; a host that differs costs bracket "
						+ "steps, never a wrong result), steps of 1.5: " + String.join(", ", shipped.stream().map(label -> label + " " + starts.get(label)).toList()));
			}
		}
		// A tune study whose arms do not fit in memory together starts each arm in its turn, not all of them now.
		this.tune = (scenario.halvingSteps() != null) ? new TuneStudy(this) : null;
		List<List<String>> turns = (this.tune != null) ? this.tune.turns(List.copyOf(this.entries.keySet())) : List.of();
		try {
			for (Map.Entry<String, Entry> e : this.entries.entrySet()) {
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
			for (Entry entry : this.entries.values()) {
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

	Optional<ServiceStart.Live> begin(String label, Entry entry, Path dir) throws IOException, InterruptedException {
		PlannedLevel first = PlannedLevel.of(this.shape.level(this.search.settings().start()));
		return new ServiceStart(this.harness).begin(entry.module, this.arm, label, this.downstream, dir, List.of(first), this.notRun);
	}

	@Override
	public InterleavedSearch.Outcome probe(String label, int load, int round, int position, int of) throws IOException, InterruptedException {
		Entry entry = this.entries.get(label);
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
				this.harness.plan().out().relativize(service.dir().resolve(id)).toString(), null, Limit.of(result));
		boolean broken = outcome.verdict() == Verdict.FAILED || !facts.serviceAlive();
		String busy = broken ? null : stillBusy(service);
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

	/** Null when the probed JVM falls idle within {@value #IDLE_WAIT_SECONDS} s of its probe (or is remote), else how busy it stayed. */
	private static String stillBusy(Service service) throws InterruptedException {
		java.util.OptionalLong pid = service.pid();
		return pid.isPresent() ? lab.sample.IdleCheck.busyAfter(pid.getAsLong(), IDLE_WAIT_SECONDS, IDLE_BUSY_PERCENT) : null;
	}

	@Override
	public boolean restart(String label, int jvm, boolean planned) throws IOException, InterruptedException {
		Entry entry = this.entries.get(label);
		if (entry.live != null) {
			entry.live.service().close();
			entry.live = null;
		}
		if (Interruption.requested()) {
			return false;
		}
		say("lab: " + label + " gets a fresh JVM, its " + ordinal(jvm) + (planned ? " (its share of the refining rounds on a JVM of its own)"
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

	private static String ordinal(int n) {
		return n + ((n % 100 >= 11 && n % 100 <= 13) ? "th" : switch (n % 10) {
			case 1 -> "st";
			case 2 -> "nd";
			case 3 -> "rd";
			default -> "th";
		});
	}

	private static String shortCommit(String commit) {
		return (commit == null) ? "unknown" : commit.substring(0, Math.min(7, commit.length()));
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

	private SearchRecord record() {
		String group = (step() < 0) ? this.arm.name()
				: this.arm.name() + "-step" + (step() + 1) + ((this.tune.turns() > 1) ? "-turn" + (this.tune.turn() + 1) : "");
		return this.search.record(group, this.target.text(), this.search.entries().contains(this.baseline) ? this.baseline : this.search.entries().get(0),
				(this.twin != null && this.search.entries().contains(this.twin)) ? this.twin : null);
	}

	/** Each variant's capacity with its interval, its ratio to the baseline, the noise floor; capacity.json per variant. */
	private void summarise() throws IOException {
		SearchSummary summary = SearchSummary.of(record());
		String unit = (this.shape == LoadShape.OPEN) ? "requests/s" : "users";
		for (SearchSummary.EntryResult result : summary.entries()) {
			say(String.format(Locale.ROOT, "lab: %s within %s: %s%s", result.entry(), this.target.describe(), result.describe(unit),
					result.limit().isEmpty() ? "" : "; bound at its knee by " + result.limit()));
			Map<String, Object> file = new LinkedHashMap<>();
			file.put("target", this.target.text());
			file.put("found", result.bracket());
			file.put("crossing", result.capacity());
			file.put("probes", this.search.probes().stream().filter(p -> p.entry().equals(result.entry())).toList());
			file.put("limit", result.limit());
			LevelJson.json.writeValue(this.entries.get(result.entry()).dir.resolve(ServiceDir.CAPACITY).toFile(), file);
		}
		Map<String, Double> crossings = new LinkedHashMap<>();
		summary.entries().stream().filter(e -> e.capacity().n() > 0 && Double.isFinite(e.capacity().estimate()))
			.forEach(e -> crossings.put(e.entry(), e.capacity().estimate()));
		if (!crossings.isEmpty()) {
			this.history.record(this.harness.plan().scenario().name(), this.arm.name(), this.target.text(), crossings,
					lab.analyse.Manifest.git(this.harness.plan().root()));
		}
		for (SearchSummary.Ratio ratio : summary.ratios()) {
			say(String.format(Locale.ROOT, "lab: %s / %s: %s%s", ratio.entry(), ratio.baseline(), ratio.describe(),
					ratio.entry().equals(this.twin) ? " (A/A: the run's noise floor)" : ""));
		}
		String precision = lab.report.SearchPrecision.of(summary);
		if (precision != null) {
			say("lab: " + precision);
		}
		String minutes = this.search.costs().describe();
		if (minutes != null) {
			say("lab: the search, " + minutes);
		}
		List<String> moved = new ArrayList<>();
		this.search.rounds().stream().filter(r -> r.moved()).forEach(r -> moved.add(Integer.toString(r.index())));
		if (!moved.isEmpty()) {
			say("lab: rounds " + String.join(", ", moved) + " were marked (their CPU reference moved) and not used");
		}
	}

}
