package lab.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import lab.analyse.judge.Figures;
import lab.analyse.judge.LevelResult;
import lab.analyse.judge.LevelResult.Verdict;
import lab.analyse.measure.Metric;
import lab.analyse.search.VarianceStudy;
import lab.json.Json;
import lab.launch.Interruption;
import lab.launch.Service;
import lab.layout.LatencyTarget;
import lab.layout.ServiceDir;
import lab.plan.Arm;
import lab.plan.PlanException;
import lab.plan.PlannedLevel;
import lab.plan.Tuning;
import lab.plan.Work;
import lab.sample.CpuReference;
import lab.sample.IdleCheck;

/**
 * A variance study ({@code --scenario variance}, docs/variance.md): where a capacity's spread between JVMs comes from.
 * Every variant under every arm (the arms are the causes tested: a tuning such as {@code heap-fixed}, an AOT cache) is an
 * entry; in each of {@code jvms} batches every entry gets a fresh JVM (started and warmed in a fresh random order, all
 * kept alive, one loaded at a time), then {@code probesPerJvm} rounds probe each at one load near its variant's knee (the
 * host's last capacity crossing, else the lab's shipped one), in a fresh random order each round; then the batch's JVMs
 * stop. Two more causes are arms of the procedure, not of the JVM's settings: the history arm ({@code preloadFactor}),
 * whose JVMs are first probed once at that multiple of the load (kept apart, in no figure), and the hold arm
 * ({@code holdArmSeconds}), whose probes hold longer; each is an entry of its own beside every variant and arm. Each
 * probe is an ordinary judged level. What each JVM chose and did is kept beside its probes: its heap and
 * young generation's sizes, its compilations and code size, its GCs ({@code jcmd PerfCounter.print} after its last
 * probe), and each probe's CPU, GC and JIT time per request. {@code variance.json} is written after every probe and
 * {@code variance.md} at the end (or when stopped), from {@link VarianceStudy}.
 */
final class VarianceRun {

	/** The capacity search whose crossings place the study's load. */
	static final String CAPACITY = "capacity";

	/** The counters a JVM's record keeps, by the name it gives them. */
	static final Map<String, String> COUNTERS = Map.of("youngCapacityBytes", "sun.gc.generation.0.capacity", "oldCapacityBytes",
			"sun.gc.generation.1.capacity", "compiles", "sun.ci.totalCompiles", "nmethodCodeBytes", "sun.ci.nmethodCodeSize", "youngGcs",
			"sun.gc.collector.0.invocations", "fullGcs", "sun.gc.collector.1.invocations");

	/**
	 * One entry: a variant under an arm, its load and its directory; with {@code preload}, the history arm's entry, whose
	 * JVMs are first probed once at that multiple of its load; with {@code hold}, the hold arm's, whose probes hold that
	 * many seconds.
	 */
	record Entry(String label, String module, Arm arm, int users, Path dir, Double preload, Integer hold) {

		/** The arm its probes are counted under: the arm's name, and for the history arm the load its JVMs went through first. */
		String armName() {
			return (this.preload != null) ? this.arm.name() + " after " + factor(this.preload)
					: (this.hold != null) ? this.arm.name() + " held " + this.hold + " s" : this.arm.name();
		}

	}

	/** A preload factor as the history arm's name and label say it ({@code 2x}, {@code 1.5x}). */
	static String factor(double preload) {
		return ((preload == Math.rint(preload)) ? Long.toString((long) preload) : Double.toString(preload)) + "x";
	}

	private final List<VarianceStudy.Probe> preloads = new ArrayList<>();

	/** Makes the harness of a work per request; {@link #harness} keeps one per work. */
	private final Function<Work, Harness> makeHarness;

	private final Map<Work, Harness> harnesses = new java.util.HashMap<>();

	private final List<Arm> arms;

	private final Service downstream;

	private final NotRun.Recorder notRun;

	private final List<Entry> entries = new ArrayList<>();

	private final List<Double> referenceMs = new ArrayList<>();

	private final List<VarianceStudy.Jvm> jvmEvidence = new ArrayList<>();

	private final List<VarianceStudy.Probe> probes = new ArrayList<>();

	private final Map<String, Integer> users = new LinkedHashMap<>();

	private final long seed = System.nanoTime();

	private String stopped;

	VarianceRun(Function<Work, Harness> harnesses, List<Arm> arms, Service downstream, NotRun.Recorder notRun) {
		this.makeHarness = harnesses;
		this.arms = List.copyOf(arms);
		this.downstream = downstream;
		this.notRun = notRun;
	}

	void run() throws IOException, InterruptedException {
		Harness first = harness(this.arms.get(0).work());
		var plan = first.plan();
		var scenario = plan.scenario();
		LatencyTarget target = scenario.target();
		double hostReferenceMs = CpuReference.time(plan.javaHome().resolve("bin/java"), first.cpus().serviceTaskset());
		Map<String, Integer> loads = loads(new CapacityHistory(plan.out().toAbsolutePath().getParent()), scenario.variants(), scenario.users(), target,
				hostReferenceMs, first);
		for (Arm arm : this.arms) {
			for (String module : scenario.variants()) {
				String label = arm.label(module);
				this.entries.add(new Entry(label, module, arm, loads.get(module), plan.out().resolve(label), null, null));
				this.users.put(label, loads.get(module));
				if (scenario.preloadFactor() != null) {
					String after = label + ".after-" + factor(scenario.preloadFactor());
					this.entries.add(new Entry(after, module, arm, loads.get(module), plan.out().resolve(after), scenario.preloadFactor(), null));
					this.users.put(after, loads.get(module));
				}
				if (scenario.holdArmSeconds() != null) {
					String held = label + ".hold-" + scenario.holdArmSeconds() + "s";
					this.entries.add(new Entry(held, module, arm, loads.get(module), plan.out().resolve(held), null, scenario.holdArmSeconds()));
					this.users.put(held, loads.get(module));
				}
			}
		}
		int jvms = scenario.jvms();
		int rounds = scenario.probesPerJvm();
		say(String.format(Locale.ROOT, "lab: variance study of %d entries (%s): %d fresh JVMs each, every JVM probed %d times at its variant's load (%s)",
				this.entries.size(), String.join(", ", this.entries.stream().map(Entry::label).toList()), jvms, rounds,
				String.join(", ", loads.entrySet().stream().map(e -> e.getKey() + " " + e.getValue() + " users").toList())));
		Random random = new Random(this.seed);
		Map<Entry, ServiceStart.Live> live = new LinkedHashMap<>();
		try {
			for (int jvm = 1; jvm <= jvms && !Interruption.requested(); jvm++) {
				this.referenceMs.add(CpuReference.time(plan.javaHome().resolve("bin/java"), first.cpus().serviceTaskset()));
				List<Entry> order = new ArrayList<>(this.entries);
				Collections.shuffle(order, random);
				for (Entry entry : order) {
					if (Interruption.requested()) {
						break;
					}
					say(String.format(Locale.ROOT, "lab: batch %d of %d: %s's fresh JVM", jvm, jvms, entry.label()));
					Optional<ServiceStart.Live> started = begin(entry, jvm);
					started.ifPresent(l -> live.put(entry, l));
				}
				Map<Entry, Boolean> firstAfterWarmup = new LinkedHashMap<>();
				live.keySet().forEach(e -> firstAfterWarmup.put(e, true));
				// The history arm's JVMs go through their load history first, in a fresh random order.
				List<Entry> preloaded = new ArrayList<>(live.keySet().stream().filter(e -> e.preload() != null).toList());
				Collections.shuffle(preloaded, random);
				for (Entry entry : preloaded) {
					if (Interruption.requested()) {
						break;
					}
					boolean broken = preload(entry, live.get(entry), jvm);
					firstAfterWarmup.put(entry, false);
					write(plan.out());
					if (broken) {
						say("lab: " + entry.label() + "'s JVM " + jvm + " broke under its history probe: no probes of it in this batch");
						this.jvmEvidence.add(new VarianceStudy.Jvm(entry.label(), jvm, plan.out().relativize(live.get(entry).service().dir()).toString(), Map.of()));
						live.remove(entry).service().close();
					}
				}
				for (int round = 1; round <= rounds && !Interruption.requested(); round++) {
					List<Entry> probed = new ArrayList<>(live.keySet());
					Collections.shuffle(probed, random);
					for (Entry entry : probed) {
						if (Interruption.requested() || !live.containsKey(entry)) {
							continue;
						}
						boolean broken = probe(entry, live.get(entry), jvm, round, rounds, firstAfterWarmup.get(entry));
						firstAfterWarmup.put(entry, false);
						write(plan.out());
						if (broken) {
							live.remove(entry).service().close();
						}
					}
				}
				for (Map.Entry<Entry, ServiceStart.Live> e : live.entrySet()) {
					this.jvmEvidence.add(evidence(e.getKey(), jvm, e.getValue().service()));
					e.getValue().service().close();
				}
				live.clear();
				write(plan.out());
			}
		}
		finally {
			live.values().forEach(l -> l.service().close());
			if (Interruption.requested()) {
				this.stopped = "stopped by the person running it";
			}
			write(plan.out());
			String text = VarianceStudy.text(record());
			Files.writeString(plan.out().resolve(VarianceStudy.TEXT), "# Variance study\n\n" + text);
			first.out().print(text);
			say("lab: variance study written to " + plan.out().resolve(VarianceStudy.TEXT) + " (its probes' record: " + VarianceStudy.FILE + ")");
		}
	}

	/**
	 * Each variant's load: the scenario's users (one per variant, in order) when it lists them, else the host's last
	 * capacity crossing (the lab's shipped one when it has none), as a capacity search would bracket from it.
	 */
	static Map<String, Integer> loads(CapacityHistory history, List<String> variants, List<Integer> given, LatencyTarget target, double hostReferenceMs,
			Harness harness) {
		if (!given.isEmpty()) {
			// One per variant: the scenario's check refused any other count before the run began.
			Map<String, Integer> loads = new LinkedHashMap<>();
			for (int i = 0; i < variants.size(); i++) {
				loads.put(variants.get(i), given.get(i));
			}
			return loads;
		}
		BracketStarts starts = BracketStarts.of(history.last(CAPACITY, Tuning.DEFAULT, target), variants, label -> label, hostReferenceMs);
		List<String> missing = variants.stream().filter(v -> !starts.users().containsKey(v)).toList();
		if (!missing.isEmpty()) {
			throw new PlanException("no capacity crossing is known for " + String.join(", ", missing) + " at " + target
					+ ": run ./lab run --scenario capacity first, or give the study's users, one per variant");
		}
		starts.lines().forEach(line -> harness.out().println(line.replace("their brackets start from", "they are probed at").replace("brackets start from", "the study probes at")
			.replace(", steps of 1.5", "").replace("costs bracket steps, never a wrong result", "probes it off its knee")));
		return starts.users();
	}

	private Optional<ServiceStart.Live> begin(Entry entry, int jvm) throws IOException, InterruptedException {
		Harness harness = harness(entry);
		PlannedLevel level = PlannedLevel.of(harness.plan().scenario().model().level(entry.users()));
		Path dir = (jvm == 1) ? entry.dir() : entry.dir().resolve(ServiceDir.restart(jvm));
		int warmupUsers = Math.max(1, Math.min(harness.plan().scenario().warmupUsers(), (int) Math.round(SearchRun.WARM_BELOW_KNEE * entry.users())));
		Optional<ServiceStart.Live> live = new ServiceStart(harness).begin(entry.module(), entry.arm(), entry.label(), this.downstream, dir, List.of(level),
				this.notRun, warmupUsers);
		if (live.isPresent()) {
			String busy = IdleCheck.busyAfter(live.get().service(), SearchRun.WARM_IDLE_WAIT_SECONDS, SearchRun.IDLE_BUSY_PERCENT);
			if (busy != null) {
				say("lab: " + entry.label() + " after its warm-up: " + busy + "; its first probe may find the service's core shared");
			}
		}
		else {
			say("lab: " + entry.label() + "'s JVM " + jvm + " did not start, pass its contract check or warm up: no probes of it in this batch");
		}
		return live;
	}

	/**
	 * The history arm's probe of a fresh JVM at its multiple of the entry's load, before its counted probes (probe 0,
	 * kept apart from them); whether it broke the JVM.
	 */
	private boolean preload(Entry entry, ServiceStart.Live live, int jvm) throws IOException, InterruptedException {
		Harness harness = harness(entry);
		int users = (int) Math.round(entry.preload() * entry.users());
		PlannedLevel level = PlannedLevel.of(harness.plan().scenario().model().level(users));
		String id = ServiceDir.roundLevel(level.id(), 0);
		say(String.format(Locale.ROOT, "lab: batch %d, history probe: %s %s (%s its load)", jvm, entry.label(), id, factor(entry.preload())));
		Service service = live.service();
		LevelSession.Outcome outcome = new LevelSession(harness).run(service, this.downstream, level, id, 1, live.warmup(), true);
		LevelResult result = outcome.result();
		String dir = harness.plan().out().relativize(service.dir().resolve(id)).toString();
		this.preloads.add(recorded(entry, jvm, 0, users, result, dir, harness.plan().scenario().target()));
		if (result == null || outcome.verdict() == Verdict.FAILED || !outcome.facts().serviceAlive()) {
			return true;
		}
		// As after any probe: its JVM falls idle before the next one (a history probe's GCs done).
		String busy = IdleCheck.busyAfter(service, SearchRun.IDLE_WAIT_SECONDS, SearchRun.IDLE_BUSY_PERCENT);
		if (busy != null) {
			say("lab: " + entry.label() + " after its history probe: " + busy + "; its first probe may find the service's core shared");
		}
		return false;
	}

	/** Probes an entry's JVM once; whether it broke (then it is stopped). */
	private boolean probe(Entry entry, ServiceStart.Live live, int jvm, int round, int rounds, boolean firstAfterWarmup) throws IOException, InterruptedException {
		Harness harness = harness(entry);
		PlannedLevel level = PlannedLevel.of(harness.plan().scenario().model().level(entry.users()));
		int index = (jvm - 1) * rounds + round;
		String id = ServiceDir.roundLevel(level.id(), index);
		say(String.format(Locale.ROOT, "lab: batch %d, probe %d of %d: %s %s", jvm, round, rounds, entry.label(), id));
		Service service = live.service();
		LevelSession.Outcome outcome = new LevelSession(harness).run(service, this.downstream, level, id, 1, live.warmup(), firstAfterWarmup);
		LevelResult result = outcome.result();
		String dir = harness.plan().out().relativize(service.dir().resolve(id)).toString();
		this.probes.add(recorded(entry, jvm, round, entry.users(), result, dir, harness.plan().scenario().target()));
		if (result == null) {
			return true;
		}
		boolean broken = outcome.verdict() == Verdict.FAILED || !outcome.facts().serviceAlive();
		String busy = broken ? null : IdleCheck.busyAfter(service, SearchRun.IDLE_WAIT_SECONDS, SearchRun.IDLE_BUSY_PERCENT);
		if (busy != null) {
			say("lab: " + entry.label() + " " + busy + ": stopped now; its later probes in this batch are not run");
			broken = true;
		}
		return broken;
	}

	/** A probe's record: its figures from its judged level; none when it has no result (the run was stopped in it). */
	private static VarianceStudy.Probe recorded(Entry entry, int jvm, int probe, int users, LevelResult result, String dir, LatencyTarget target) {
		if (result == null) {
			return new VarianceStudy.Probe(entry.label(), entry.module(), entry.armName(), jvm, probe, users, null, Double.NaN, false, dir, null, null, null,
					null, null);
		}
		return new VarianceStudy.Probe(entry.label(), entry.module(), entry.armName(), jvm, probe, users, finite(result.latency(target)), result.rps(),
				result.verdict() == Verdict.OK, dir, finite(result.value(Figures.CPU_MS_PER_REQUEST)), finite(result.metric(Metric.GC_PERCENT)),
				finite(result.metric(Metric.JIT_PERCENT)), finite(result.metric(Metric.PEAK_HEAP_MIB)), result.limit());
	}

	/** What a JVM chose and did, from its perf counters after its last probe ({@code jcmd PerfCounter.print}). */
	private VarianceStudy.Jvm evidence(Entry entry, int jvm, Service service) throws IOException, InterruptedException {
		Path file = service.dir().resolve(ServiceDir.PERF_COUNTERS);
		String dir = harness(entry.arm().work()).plan().out().relativize(service.dir()).toString();
		Map<String, Number> counters = (service.diagnose(List.of("PerfCounter.print"), file) && Files.isRegularFile(file))
				? counters(Files.readString(file)) : Map.of();
		return new VarianceStudy.Jvm(entry.label(), jvm, dir, counters);
	}

	private static final Pattern COUNTER = Pattern.compile("^([\\w.]+)=(-?\\d+)\\s*$", Pattern.MULTILINE);

	/** The counters {@link #COUNTERS} names, read from {@code jcmd PerfCounter.print}'s text. */
	static Map<String, Number> counters(String text) {
		Map<String, Long> all = new LinkedHashMap<>();
		Matcher m = COUNTER.matcher(text);
		while (m.find()) {
			all.put(m.group(1), Long.parseLong(m.group(2)));
		}
		Map<String, Number> kept = new java.util.TreeMap<>();
		COUNTERS.forEach((name, counter) -> {
			if (all.containsKey(counter)) {
				kept.put(name, all.get(counter));
			}
		});
		// GC time: the collectors' ticks over the high-resolution timer's frequency.
		Long frequency = all.get("sun.os.hrt.frequency");
		if (frequency != null && frequency > 0) {
			long ticks = all.getOrDefault("sun.gc.collector.0.time", 0L) + all.getOrDefault("sun.gc.collector.1.time", 0L);
			kept.put("gcSeconds", ticks / (double) frequency);
		}
		return kept;
	}

	private VarianceStudy.Record record() {
		var scenario = harness(this.arms.get(0).work()).plan().scenario();
		return new VarianceStudy.Record("A variance study (docs/variance.md): fresh JVMs of each entry, each probed at one load; every probe a judged level in "
				+ "its directory. referenceMs: the CPU reference timed on the service's core before each batch.", scenario.jvms(), scenario.probesPerJvm(),
				this.seed, this.users, this.referenceMs, this.jvmEvidence, this.probes, this.stopped, this.arms.get(0).name(), this.preloads);
	}

	private void write(Path out) throws IOException {
		Json.MAPPER.writerWithDefaultPrettyPrinter().writeValue(out.resolve(VarianceStudy.FILE).toFile(), record());
	}

	private static Double finite(double value) {
		return Double.isFinite(value) ? value : null;
	}

	/** The harness of an arm's work per request, made once. */
	private Harness harness(Work work) {
		return this.harnesses.computeIfAbsent(work, this.makeHarness);
	}

	/** An entry's harness: its arm's, its probes held as its hold arm says. */
	private Harness harness(Entry entry) {
		Harness harness = harness(entry.arm().work());
		if (entry.hold() == null) {
			return harness;
		}
		return this.held.computeIfAbsent(entry.arm().work(), w -> new Harness(harness.plan().withHold(entry.hold()), harness.out(), harness.cpus(),
				harness.injectors(), harness.window(), harness.thresholds(), harness.jfr(), harness.profiling(), harness.pinned(), harness.work(),
				harness.needs(), harness.database()));
	}

	/** The hold arm's harnesses, per work. */
	private final Map<Work, Harness> held = new java.util.HashMap<>();

	private void say(String line) {
		harness(this.arms.get(0).work()).out().println(line);
	}

}
