package lab.analyse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Locale;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

import lab.analyse.LevelResult.Verdict;
import lab.load.LoadWindow;
import lab.layout.ServiceDir;
import lab.layout.LevelDir;
import lab.verify.ClientReadback;
import tools.jackson.databind.JsonNode;

/**
 * Turns a results directory into one {@link LevelResult} per variant and level: repeats are combined (median of
 * rates, merged histograms for percentiles, summed counts) and every level is judged against {@link Thresholds}.
 */
public final class Analyser {

	private final Thresholds thresholds;

	private final Catalogue catalogue;

	public Analyser(Thresholds thresholds) {
		this(thresholds, Catalogue.STANDARD);
	}

	/** An analysis computing and judging by {@code catalogue}'s figures and rules (the lab's: {@link Catalogue#STANDARD}). */
	public Analyser(Thresholds thresholds, Catalogue catalogue) {
		this.thresholds = thresholds;
		this.catalogue = catalogue;
	}

	/** Every level directory (one holding a level.json) under {@code results}, grouped by variant and level. */
	public List<LevelResult> analyse(Path results, List<String> variantOrder) throws IOException {
		List<Measurement> measurements = new ArrayList<>();
		for (Path dir : levelDirs(results)) {
			measurements.add(Measurement.of(LevelFiles.read(dir, results)));
		}
		return judge(measurements, variantOrder);
	}

	/**
	 * The whole results directory, read once: each level's files into its figures and its timeline series, the levels
	 * judged, the memory profiles, the services' downstream clients. {@code manifest}: the run's manifest.json as
	 * written; {@code rejudged}: why the thresholds are not the ones recorded, else null.
	 */
	public RunAnalysis run(Path results, JsonNode manifest, String rejudged, List<String> variantOrder) throws IOException {
		List<Measurement> measurements = new ArrayList<>();
		List<LevelSeries> series = new ArrayList<>();
		for (Path dir : levelDirs(results)) {
			LevelFiles files = LevelFiles.read(dir, results);
			measurements.add(Measurement.of(files));
			series.add(LevelSeries.of(files));
		}
		List<LevelResult> levels = judge(measurements, variantOrder);
		return new RunAnalysis(results, manifest, this.thresholds, rejudged, levels, MemoryProfile.analyse(results, levels, series), List.copyOf(series),
				clients(results));
	}

	/** Measurements grouped by variant and level, repeats combined, judged, in report order. */
	private List<LevelResult> judge(List<Measurement> measurements, List<String> variantOrder) {
		Map<String, List<Measurement>> groups = new LinkedHashMap<>();
		for (Measurement measurement : measurements) {
			LevelFacts facts = measurement.facts();
			groups.computeIfAbsent(facts.variant() + "/" + facts.load(), k -> new ArrayList<>()).add(measurement);
		}
		List<LevelResult> levels = new ArrayList<>();
		for (List<Measurement> repeats : groups.values()) {
			levels.add(combine(repeats));
		}
		// Variants in their order, each tuning of one variant after the default, then by load.
		levels.sort(Comparator.comparingInt((LevelResult r) -> order(variantOrder, lab.plan.Variant.moduleOf(r.variant())))
			.thenComparing(LevelResult::variant)
			.thenComparingInt(LevelResult::load));
		return nameCollapses(levels);
	}

	/** Each service's downstream client as it read it back ({@link ClientReadback}), by the directory it was kept in. */
	public static Map<String, String> clients(Path results) throws IOException {
		Map<String, String> clients = new LinkedHashMap<>();
		try (Stream<Path> files = Files.find(results, 3, (file, attributes) -> file.getFileName().toString().equals(ServiceDir.DOWNSTREAM_CLIENT))) {
			for (Path file : files.sorted().toList()) {
				ClientReadback.kept(file.getParent()).ifPresent(settings -> clients.put(results.relativize(file.getParent()).toString(),
						ClientReadback.describe(settings)));
			}
		}
		return clients;
	}

	/** Every level directory of a run (those holding a {@code level.json}), in path order. */
	public static List<Path> levelDirs(Path results) throws IOException {
		try (Stream<Path> files = Files.find(results, 4, (path, attributes) -> path.getFileName().toString().equals(LevelDir.FACTS))) {
			return files.map(Path::getParent).sorted().toList();
		}
	}

	private static int order(List<String> variantOrder, String variant) {
		int index = variantOrder.indexOf(variant);
		return (index < 0) ? Integer.MAX_VALUE : index;
	}

	/**
	 * Names a collapse of throughput in the reasons, without changing a verdict: efficiency under the floor, or rps
	 * below the previous level's of the same variant by more than the stated margin.
	 */
	List<LevelResult> nameCollapses(List<LevelResult> levels) {
		List<LevelResult> named = new ArrayList<>();
		LevelResult previous = null;
		for (LevelResult level : levels) {
			LevelResult row = level;
			if (row.verdict() != Verdict.INTERRUPTED && !Double.isNaN(row.rps())) {
				for (FigureRule rule : this.catalogue.rules(FigureRule.Scope.LEVEL)) {
					java.util.Optional<FigureRule.Finding> finding = rule.judge(row.figures(), this.thresholds);
					if (finding.isPresent()) {
						row = row.withReason(finding.get().reason());
					}
				}
				if (previous != null && previous.variant().equals(row.variant()) && !Double.isNaN(previous.rps())
						&& row.rps() < previous.rps() * (1 - this.thresholds.get(Rule.RPS_DROP) / 100)) {
					row = row.withReason(String.format(Locale.ROOT, "throughput fell %.0f%% below the previous level's %,.0f rps",
							100 * (1 - row.rps() / previous.rps()), previous.rps()));
				}
			}
			if (row.verdict() != Verdict.INTERRUPTED) {
				previous = row;
			}
			named.add(row);
		}
		return named;
	}

	public LevelResult analyseOne(Measurement measurement) {
		return combine(List.of(measurement));
	}

	LevelResult combine(List<Measurement> repeats) {
		LevelFacts facts = repeats.get(0).facts();
		Map<Figure, Double> figures = Repeats.compute(repeats, this.thresholds, this.catalogue.figures());
		Set<String> reasons = new LinkedHashSet<>();
		Set<String> evidence = new LinkedHashSet<>();
		Verdict verdict = Verdict.OK;
		for (Measurement m : repeats) {
			Verdict one = judge(m, reasons, evidence);
			if (one.compareTo(verdict) > 0) {
				verdict = one;
			}
		}
		if (facts.cappedFrom() != null) {
			// A valid measurement of the users it ran (every figure and the row's label are for those), not of the
			// level asked for: named, not judged.
			reasons.add("capped by the descriptor limit: ran " + facts.load() + " of the " + facts.cappedFrom() + " users asked (ulimit -n)");
		}
		double rps = figures.get(Figures.RPS);
		double rpsMin = figures.get(Figures.RPS_MIN);
		double rpsMax = figures.get(Figures.RPS_MAX);
		if (repeats.size() > 1 && rps > 0 && 100 * (rpsMax - rpsMin) / rps > this.thresholds.get(Rule.REPEAT_SPREAD)) {
			reasons.add(String.format(Locale.ROOT, "repeats spread %.0f%% of the median rps > %.0f%%", 100 * (rpsMax - rpsMin) / rps,
					this.thresholds.get(Rule.REPEAT_SPREAD)));
		}
		// The harness's cost per request, like the service's, only when most requests were answered (COST_MAX_ERRORS).
		boolean perRequest = figures.get(Figures.ERROR_PERCENT) <= this.thresholds.get(Rule.COST_MAX_ERRORS);
		List<String> reports = repeats.stream().flatMap(m -> m.gatlingReports().stream()).toList();
		List<Measurement.InjectorShare> injectors = new ArrayList<>();
		for (int i = 0; i < repeats.size(); i++) {
			String prefix = (repeats.size() > 1) ? "repeat " + (i + 1) + " " : "";
			for (Measurement.InjectorShare share : repeats.get(i).injectors()) {
				injectors.add(new Measurement.InjectorShare(prefix + share.name(), share.requests(), share.errors(), share.p99Ms(),
						share.cpuPercent(), share.processors()));
			}
		}
		return new LevelResult(facts.variant(), facts.level(), repeats.size(), figures,
				perRequest ? Headroom.median(repeats.stream().map(Measurement::headroom).toList(), this.thresholds.get(Rule.INJECTOR_BUSY))
						: Headroom.UNKNOWN, verdict,
				List.copyOf(reasons), List.copyOf(evidence),
				List.copyOf(injectors), reports, PinnedSite.merge(repeats.stream().map(Measurement::pinnedSites).toList()));
	}

	/** The findings of the rules comparing one of this repeat's figures with a threshold, in declaration order. */
	private List<FigureRule.Finding> figureFindings(Measurement m) {
		if (m.window() == null) {
			return List.of();
		}
		Map<Figure, Double> figures = Repeats.compute(List.of(m), this.thresholds, this.catalogue.figures());
		List<FigureRule.Finding> findings = new ArrayList<>();
		for (FigureRule rule : this.catalogue.rules(FigureRule.Scope.EACH_REPEAT)) {
			rule.judge(figures, this.thresholds).ifPresent(findings::add);
		}
		return findings;
	}

	private static List<String> reasons(List<FigureRule.Finding> findings, Rule.Effect effect) {
		return findings.stream().filter(f -> f.effect() == effect).map(FigureRule.Finding::reason).toList();
	}

	/**
	 * The measurement is judged first, then the service: INTERRUPTED when the person stopped the run; FAILED when the
	 * service died or ran out of memory (no harness fault does that); INVALID when the harness was the limit or broke,
	 * or a check could not be computed (whatever else the service did: its symptoms are listed, not judged); FAILED
	 * when the service broke otherwise, warm or not; INVALID when the JIT had not settled; OK.
	 */
	Verdict judge(Measurement m, Set<String> reasons, Set<String> evidence) {
		LevelFacts facts = m.facts();
		LoadWindow window = m.window();
		if (facts.interruptedAtMs() != null) {
			reasons.add("interrupted by the person running the lab" + at(window, facts.interruptedAtMs()) + "; not the service's fault, not ranked");
			return Verdict.INTERRUPTED;
		}
		if (!facts.problems().isEmpty()) {
			// The level never ran (start-up or contract failure, an earlier level broke the service or the harness).
			reasons.addAll(facts.problems());
			evidence.addAll(facts.evidence());
			return LevelFacts.Blame.read(facts.notRun()).verdict();
		}
		Set<String> notes = new LinkedHashSet<>();
		List<FigureRule.Finding> findings = figureFindings(m);
		List<String> invalid = harnessProblems(m, notes, reasons(findings, Rule.Effect.INVALID));
		List<String> cold = (m.window() != null) ? notWarm(m, notes) : List.of();
		List<String> failed = serviceProblems(m, reasons(findings, Rule.Effect.FAILED));
		notes.addAll(reasons(findings, Rule.Effect.NOTE));
		if (m.window() != null) {
			declaredChecks(m, invalid, failed, notes);
		}
		Verdict verdict;
		if (!facts.serviceAlive() || facts.outOfMemory()) {
			// No harness fault kills a process or fills its heap: a service that died is FAILED whatever else went
			// wrong (a dead service makes the injector spin on refused connections and saturate its cores).
			reasons.addAll(failed);
			if (!invalid.isEmpty()) {
				reasons.add("the harness was off too: " + String.join(", ", invalid));
			}
			verdict = Verdict.FAILED;
		}
		else if (!invalid.isEmpty()) {
			reasons.addAll(invalid);
			reasons.addAll(cold);
			if (!failed.isEmpty()) {
				reasons.add("the service's symptoms, not judged: " + String.join(", ", failed));
			}
			verdict = Verdict.INVALID;
		}
		else if (!failed.isEmpty()) {
			// A JIT still compiling makes a service slower, it does not leave users unanswered: errors, a stall or
			// refused connections are the service's whether it was warm or not (the failure itself opens code paths
			// the JIT then compiles, and makes the window's halves incomparable). Named, not judged.
			reasons.addAll(failed);
			cold.forEach(reason -> reasons.add(reason + " (named, not judged: a JIT still compiling slows a service, it does not stop it answering)"));
			verdict = Verdict.FAILED;
		}
		else if (!cold.isEmpty()) {
			reasons.addAll(cold);
			verdict = Verdict.INVALID;
		}
		else {
			verdict = Verdict.OK;
		}
		// Harness symptoms too small to have moved the figures, each with its bound: named, not judged.
		reasons.addAll(notes);
		if (verdict != Verdict.OK) {
			evidence.addAll(facts.evidence());
		}
		return verdict;
	}

	/** The rules judged by their own declaration ({@link Rule#check}), each reason added where its effect puts it. */
	private void declaredChecks(Measurement m, List<String> invalid, List<String> failed, Set<String> notes) {
		for (Rule rule : Rule.values()) {
			double bound = rule.hasThreshold() ? this.thresholds.get(rule) : Double.NaN;
			String boundText = rule.hasThreshold() ? rule.format(bound) : "";
			rule.check().flatMap(check -> check.reason(m, bound, boundText)).ifPresent(reason -> {
				switch (rule.effect()) {
					case INVALID -> invalid.add(reason);
					case FAILED -> failed.add(reason);
					case NOTE -> notes.add(reason);
					case INTERRUPTED -> throw new IllegalStateException(rule + ": only the person interrupts a run");
				}
			});
		}
	}

	/**
	 * What made the measurement untrustworthy: the injector, the downstream, no warm-up, missing data (the JIT's state
	 * is judged apart: {@link #notWarm}). A harness
	 * symptom whose effect on the figures can be bounded below {@link Thresholds#harnessEffectPercent} goes to
	 * {@code notes} with its bound instead.
	 */
	private List<String> harnessProblems(Measurement m, Set<String> notes, List<String> figureReasons) {
		LevelFacts facts = m.facts();
		LoadWindow window = m.window();
		List<String> invalid = new ArrayList<>();
		if (facts.injectorExitCode() == -1) {
			invalid.add("the injector did not finish in time and was stopped");
		}
		else if (facts.injectorExitCode() != 0) {
			invalid.add("the injector exited with code " + facts.injectorExitCode());
		}
		if (window == null) {
			invalid.add("no load window: the injector did not finish this level");
		}
		else {
			// The declared rules comparing one figure with a threshold (the injector cores' load among them).
			invalid.addAll(figureReasons);
			invalid.addAll(downstreamProblems(m, notes));
			if (m.stall().rows() == 0) {
				invalid.add("the stall check could not be computed (the injector wrote no completions in the window)");
			}
		}
		if (!facts.warmedUp()) {
			invalid.add("no warm-up: a cold JVM runs at a fraction of its speed");
		}
		return invalid;
	}

	/**
	 * Warm means the JIT has settled: read from the JIT's own counter (its compile time in the window). The window's
	 * stationarity (its first half dearer per request than its second, GC taken out) judges runs older than the JIT
	 * series, and say so; where the JIT was measured and had settled, a dearer first half is named ("not steady"),
	 * since then it was not the JIT that made it dearer.
	 */
	private List<String> notWarm(Measurement m, Set<String> notes) {
		List<String> invalid = new ArrayList<>();
		double jit = m.sampled().getOrDefault(Metric.JIT_PERCENT, Double.NaN);
		Halves halves = m.halves();
		double dearer = halves.firstHalfDearerPercent();
		if (Double.isNaN(jit) && Double.isNaN(dearer)) {
			invalid.add("whether the service was warm could not be computed (no JIT samples, and the window too short to compare its halves)");
			return invalid;
		}
		if (Double.isNaN(jit)) {
			notes.add("the JIT was not sampled (a run older than its series): warmth judged by the window's halves only");
		}
		else if (jit > this.thresholds.get(Rule.NOT_WARM_JIT)) {
			invalid.add(String.format(Locale.ROOT, "not warm: the JIT was busy %.1f s of the %.0f s window (%.0f%% > %.0f%%)",
					jit / 100 * m.window().steadySeconds(), m.window().steadySeconds(), jit, this.thresholds.get(Rule.NOT_WARM_JIT)));
		}
		if (!Double.isNaN(dearer) && dearer > this.thresholds.get(Rule.NOT_WARM_HALVES)) {
			String dearerText = String.format(Locale.ROOT, "the window's first half cost %.3f ms mutator CPU per request, its second %.3f (+%.0f%% > %.0f%%)",
					halves.firstCpuMsPerRequest(), halves.secondCpuMsPerRequest(), dearer, this.thresholds.get(Rule.NOT_WARM_HALVES));
			double extra = halves.firstHalfExtraCorePercent();
			if (extra > this.thresholds.get(Rule.NOT_WARM_HALVES_MIN_CORE) && !Double.isNaN(jit) && jit <= this.thresholds.get(Rule.NOT_WARM_JIT)) {
				// The JIT's own counter says it had settled: what made the first half dearer was something else (measured
				// here: GC at 13-42% of the window, whose pause time taken out leaves its cost to the mutator; a saturated
				// level still taking its ramp's connections). Not the JIT, so not "not warm": named with its figures.
				notes.add(String.format(Locale.ROOT, "not steady: %s; not the JIT (busy %.1f%% of the window <= %.0f%%): the window's CPU per "
						+ "request is the mean of its halves", dearerText, jit, this.thresholds.get(Rule.NOT_WARM_JIT)));
			}
			else if (extra > this.thresholds.get(Rule.NOT_WARM_HALVES_MIN_CORE)) {
				invalid.add("not warm: " + dearerText);
			}
			else {
				notes.add(String.format(Locale.ROOT, "%s, but the difference was %.1f%% of one core (<= %.0f%%: what fixed per-second costs move)",
						dearerText, extra, this.thresholds.get(Rule.NOT_WARM_HALVES_MIN_CORE)));
			}
		}
		return invalid;
	}

	private List<String> downstreamProblems(Measurement m, Set<String> notes) {
		LevelFacts facts = m.facts();
		List<String> invalid = new ArrayList<>();
		double limit = this.thresholds.downstreamOverheadLimitMs(facts.delayMs());
		if (facts.downstreamWatched() == null) {
			// Results from before the probe: the downstream's own overhead histogram was the figure judged.
			if (m.downstreamP99OverheadMs() > limit) {
				invalid.add(String.format(Locale.ROOT, "downstream p99 %.0f ms over its delay > %.0f ms", m.downstreamP99OverheadMs(), limit));
			}
			return invalid;
		}
		if (!facts.downstreamWatched()) {
			return invalid;
		}
		Probes probes = m.probes();
		if (Boolean.FALSE.equals(facts.downstreamAlive())) {
			invalid.add("the downstream died" + ((facts.downstreamExitCode() != null) ? " (exit code " + facts.downstreamExitCode() + ")" : "")
					+ ((probes.firstFailureEpochMs() > 0) ? at(m.window(), probes.firstFailureEpochMs()) : ""));
		}
		else if (probes.failures() > 0) {
			invalid.add("the downstream stopped answering" + at(m.window(), probes.firstFailureEpochMs()) + " (" + probes.failures()
					+ " of " + probes.count() + " probes failed)");
		}
		if (probes.count() == 0) {
			invalid.add("the downstream's lateness could not be computed (no probe in the window)");
		}
		else if (probes.p99LateMs() > limit) {
			lateness(m, limit).ifPresentOrElse(invalid::add, () -> notes.add(latenessBound(m)));
		}
		return invalid;
	}

	/**
	 * A late downstream judged by what it could have changed. The service's p99: every request waited at most the
	 * downstream's p99 lateness more, so that lateness over the service's own p99 bounds its share. The throughput:
	 * a closed loop of N users answers N / (delay + mean lateness + the service's time), so the mean lateness over
	 * delay + mean lateness bounds the share it took, unless the service's own cores were the limit (then the users
	 * waited on the service, not the downstream) or the load was an open arrival rate (not slowed by late answers).
	 * INVALID (the returned reason) when either bound exceeds {@link Thresholds#harnessEffectPercent}.
	 */
	private java.util.Optional<String> lateness(Measurement m, double limit) {
		double p99Share = latencyShare(m);
		double rpsShare = rpsShare(m);
		boolean latencyMoved = Double.isNaN(p99Share) || p99Share > this.thresholds.get(Rule.HARNESS_EFFECT);
		boolean rpsMoved = !Double.isNaN(rpsShare) && rpsShare > this.thresholds.get(Rule.HARNESS_EFFECT);
		if (!latencyMoved && !rpsMoved) {
			return java.util.Optional.empty();
		}
		return java.util.Optional.of(String.format(Locale.ROOT, "downstream p99 %.0f ms late > %.0f ms (probed end to end), %s", m.probes().p99LateMs(),
				limit, latencyMoved ? (Double.isNaN(p99Share) ? P99_SHARE_UNKNOWN
						: String.format(Locale.ROOT, "%.0f%% of the service's p99 > %.0f%%", p99Share, this.thresholds.get(Rule.HARNESS_EFFECT)))
						: String.format(Locale.ROOT, "mean %.0f ms late could take %.0f%% of the throughput > %.0f%%", m.probes().meanLateMs(), rpsShare,
								this.thresholds.get(Rule.HARNESS_EFFECT))));
	}

	private String latenessBound(Measurement m) {
		double rpsShare = rpsShare(m);
		double p99Share = latencyShare(m);
		String ofP99 = Double.isNaN(p99Share) ? P99_SHARE_UNKNOWN
				: String.format(Locale.ROOT, "at most %.0f%% of the service's p99 (%,.0f ms)", p99Share, m.latency().okMillis(99));
		return String.format(Locale.ROOT, "downstream p99 %.0f ms late: %s%s", m.probes().p99LateMs(), ofP99,
				Double.isNaN(rpsShare) ? ", and not of its throughput (the service's cores were the limit)"
						: String.format(Locale.ROOT, " and %.0f%% of its throughput", rpsShare));
	}

	/** What a reason says of the downstream's share of the service's p99 when that p99 is unknown: words, never NaN. */
	private static final String P99_SHARE_UNKNOWN = "its share of the service's p99 unknown (no request succeeded)";

	/** The downstream's p99 lateness in % of the service's p99 (successes); NaN when the service's is unknown. */
	private static double latencyShare(Measurement m) {
		double p99 = m.latency().okMillis(99);
		return (p99 > 0) ? 100 * m.probes().p99LateMs() / p99 : Double.NaN;
	}

	/**
	 * The share of a closed loop's throughput the downstream's mean lateness could take; NaN when it could take none
	 * (an open model, or the service's cores at the limit: {@link Rule#SATURATED} busy or more).
	 */
	private double rpsShare(Measurement m) {
		LevelFacts facts = m.facts();
		boolean saturated = m.serviceCpuPercent() >= this.thresholds.get(Rule.SATURATED) * Math.max(1, facts.serviceCpus());
		if (!(facts.level() instanceof lab.layout.Level.Closed) || saturated || Double.isNaN(m.probes().meanLateMs())) {
			return Double.NaN;
		}
		double late = m.probes().meanLateMs();
		return 100 * late / (facts.delayMs() + late);
	}

	/** The name of a service the runner did not start, from its {@code remote.txt} beside the level (or a repeat's). */
	private static java.util.Optional<String> remoteName(Path level) {
		for (Path dir = level.getParent(); dir != null && dir != level.getRoot(); dir = dir.getParent()) {
			Path note = dir.resolve(ServiceDir.REMOTE);
			if (Files.isRegularFile(note)) {
				try {
					return java.util.Optional.of(Files.readAllLines(note).get(0).split(" ")[0]);
				}
				catch (IOException | RuntimeException ex) {
					return java.util.Optional.of(dir.getFileName().toString());
				}
			}
			if (Files.exists(dir.resolve(lab.layout.RunDir.MANIFEST))) {
				break;
			}
		}
		return java.util.Optional.empty();
	}

	/** What broke in the service: it died, ran out of memory, stalled, refused, or failed too many requests. */
	private List<String> serviceProblems(Measurement m, List<String> figureReasons) {
		LevelFacts facts = m.facts();
		List<String> failed = new ArrayList<>();
		// The cause first: a service that ran out of memory and then died died of it.
		if (facts.outOfMemory()) {
			failed.add("OutOfMemoryError in the service log");
		}
		if (!facts.serviceAlive()) {
			// A service the runner did not start is known only by its health check; its log is on its own host.
			java.util.Optional<String> remote = remoteName(m.dir());
			failed.add(remote.isPresent() ? "the service stopped answering its health check (not started by the lab, its log is on its own host; "
					+ "in Compose: docker compose logs " + remote.get() + ")"
					: "the service died" + ((facts.exitCode() != null) ? " (exit code " + facts.exitCode() + ")" : ""));
		}
		if (m.window() == null) {
			return failed;
		}
		RequestCounts counts = m.counts();
		// The declared rules comparing one figure with a threshold (refused connections, errors, ...), after the cause.
		failed.addAll(figureReasons);
		Stall stall = m.stall();
		if (stall.seconds() >= this.thresholds.stallSeconds(facts.delayMs())) {
			failed.add("stalled " + stall.seconds() + " s" + at(m.window(), stall.fromEpochMs()) + ": no response while users waited");
		}
		if (counts.total() > 0 && counts.ok() == 0) {
			failed.add("no request succeeded in the window");
		}
		else if (counts.total() == 0) {
			failed.add("no request was sent in the window");
		}
		return failed;
	}

	/** " at +12 s" from the start of the level's load, or nothing without a window. */
	private static String at(LoadWindow window, long epochMs) {
		return (window == null) ? "" : String.format(Locale.ROOT, " at +%d s", (epochMs - window.start()) / 1000);
	}

	static <T> double median(List<T> repeats, ToDoubleFunction<T> metric) {
		double[] values = repeats.stream().mapToDouble(metric).filter(v -> !Double.isNaN(v)).sorted().toArray();
		if (values.length == 0) {
			return Double.NaN;
		}
		int middle = values.length / 2;
		return (values.length % 2 == 1) ? values[middle] : (values[middle - 1] + values[middle]) / 2;
	}

	/** The largest of the repeats' figures, ignoring a NaN; NaN when none could be computed. */
	static <T> double max(List<T> repeats, ToDoubleFunction<T> metric) {
		return repeats.stream().mapToDouble(metric).filter(v -> !Double.isNaN(v)).max().orElse(Double.NaN);
	}

}
