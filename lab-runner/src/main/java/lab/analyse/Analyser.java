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
import lab.layout.RunDir;
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

	private final lab.layout.LatencyTarget target;

	public Analyser(Thresholds thresholds) {
		this(thresholds, Catalogue.STANDARD);
	}

	/** An analysis computing and judging by {@code catalogue}'s figures and rules (the lab's: {@link Catalogue#STANDARD}). */
	public Analyser(Thresholds thresholds, Catalogue catalogue) {
		this(thresholds, catalogue, lab.layout.LatencyTarget.DEFAULT);
	}

	private Analyser(Thresholds thresholds, Catalogue catalogue, lab.layout.LatencyTarget target) {
		this.thresholds = thresholds;
		this.catalogue = catalogue;
		this.target = target;
	}

	/** This analysis with every level judged against {@code target} besides its verdict (the lab's default otherwise). */
	public Analyser withTarget(lab.layout.LatencyTarget target) {
		return new Analyser(this.thresholds, this.catalogue, target);
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
				clients(results), searches(results));
	}

	/**
	 * Gatling's assertions failed (its exit 2) over all its requests, ramp included; kept only where the lab's window met
	 * the target ({@link LevelResult#withTarget}), where the two disagree.
	 */
	static final String GATLING_ASSERTIONS_NOTE = "Gatling's assertions of the latency target failed over all its requests, ramp included, "
			+ "where the lab's steady window met it (its report shows which)";

	/** Measurements grouped by variant and level, repeats combined, judged, in report order. */
	private List<LevelResult> judge(List<Measurement> measurements, List<String> variantOrder) {
		Map<String, List<Measurement>> groups = new LinkedHashMap<>();
		for (Measurement measurement : measurements) {
			LevelFacts facts = measurement.facts();
			// Repeats of a level combine; a capacity search's probe run once more ("-again") or in a round of an interleaved
			// search ("-round<k>") is a row of its own.
			String name = measurement.dir().getFileName().toString();
			String suffix = lab.layout.ServiceDir.rowSuffix(name);
			String again = suffix.isEmpty() ? "" : "/" + suffix;
			groups.computeIfAbsent(facts.variant() + "/" + facts.load() + again, k -> new ArrayList<>()).add(measurement);
		}
		List<LevelResult> levels = new ArrayList<>();
		for (List<Measurement> repeats : groups.values()) {
			levels.add(combine(repeats));
		}
		// Variants in their order, each tuning of one variant after the default, then by load.
		levels.sort(Comparator.comparingInt((LevelResult r) -> order(variantOrder, lab.plan.Variant.moduleOf(r.variant())))
			.thenComparing(LevelResult::variant)
			.thenComparingInt(LevelResult::load));
		return nameCollapses(levels).stream().map(level -> level.withTarget(this.target)).toList();
	}

	/** Each interleaved capacity search's file, by name, in name order. */
	public static Map<String, JsonNode> searches(Path results) throws IOException {
		Map<String, JsonNode> searches = new LinkedHashMap<>();
		try (Stream<Path> files = Files.list(results)) {
			for (Path file : files.filter(f -> RunDir.isCapacitySearch(f.getFileName().toString())).sorted().toList()) {
				searches.put(file.getFileName().toString(), lab.json.Json.MAPPER.readTree(file.toFile()));
			}
		}
		return searches;
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
		return combine(List.of(measurement)).withTarget(this.target);
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
				null, List.copyOf(reasons), List.copyOf(evidence),
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
		List<String> cold = (m.window() != null) ? new Warmth(this.thresholds).judge(m, notes) : new ArrayList<>();
		if (facts.startedCold()) {
			// A start measures the cold JVM on purpose: what would make a level "not warm" is what it reports.
			cold.forEach(reason -> notes.add("started cold on purpose: " + reason));
			cold = List.of();
		}
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
		else {
			// What an OK level found on its way is shown with it: where the time went when it missed the target with its
			// core not saturated (OffCpuEvidence), a connection pool that was the limit (PoolEvidence).
			facts.evidence().stream().filter(file -> file.endsWith("/" + lab.layout.LevelDir.OFF_CPU) || file.endsWith("/" + lab.layout.LevelDir.POOL))
				.forEach(evidence::add);
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
	 * is judged apart: {@link Warmth}). A harness
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
		else if (facts.injectorExitCode() == GATLING_ASSERTIONS_FAILED && window != null) {
			// Gatling's own judgment of the latency target over all its requests, ramp included: the harness worked.
			notes.add(GATLING_ASSERTIONS_NOTE);
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
			invalid.addAll(new DownstreamLateness(this.thresholds).judge(m, notes));
			if (m.stall().rows() == 0) {
				invalid.add("the stall check could not be computed (the injector wrote no completions in the window)");
			}
		}
		if (!facts.warmedUp() && !facts.startedCold()) {
			invalid.add("no warm-up: a cold JVM runs at a fraction of its speed");
		}
		return invalid;
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

	/** Gatling's exit code when an assertion failed (its {@code StatusCode.AssertionsFailed}). */
	static final int GATLING_ASSERTIONS_FAILED = 2;

	/** " at +12 s" from the start of the level's load, or nothing without a window. */
	static String at(LoadWindow window, long epochMs) {
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
