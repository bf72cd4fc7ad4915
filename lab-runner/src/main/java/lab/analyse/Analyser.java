package lab.analyse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
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
import lab.layout.LevelDir;
import org.HdrHistogram.Histogram;

/**
 * Turns a results directory into one {@link LevelResult} per variant and level: repeats are combined (median of
 * rates, merged histograms for percentiles, summed counts) and every level is judged against {@link Thresholds}.
 */
public final class Analyser {

	private final Thresholds thresholds;

	public Analyser(Thresholds thresholds) {
		this.thresholds = thresholds;
	}

	/** Every level directory (one holding a level.json) under {@code results}, grouped by variant and level. */
	public List<LevelResult> analyse(Path results, List<String> variantOrder) throws IOException {
		Map<String, List<Measurement>> groups = new LinkedHashMap<>();
		for (Path dir : levelDirs(results)) {
			Measurement measurement = Measurement.of(dir, results);
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

	/** Every level directory (one holding a level.json) under {@code results}, repeats included, sorted. */
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
				if (row.efficiency() * 100 < this.thresholds.efficiencyFloorPercent()) {
					row = row.withReason(String.format(Locale.ROOT, "efficiency %.0f%% < %.0f%% of the ceiling", 100 * row.efficiency(),
							this.thresholds.efficiencyFloorPercent()));
				}
				if (previous != null && previous.variant().equals(row.variant()) && !Double.isNaN(previous.rps())
						&& row.rps() < previous.rps() * (1 - this.thresholds.rpsDropPercent() / 100)) {
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

	/** Above this share of failed requests a level shows no CPU per request (service, injector or harness). */
	static final double MAX_ERROR_PERCENT_FOR_COST = 50;

	LevelResult combine(List<Measurement> repeats) {
		LevelFacts facts = repeats.get(0).facts();
		Latency latency = Latency.merge(repeats.stream().map(Measurement::latency).toList());
		RequestCounts counts = RequestCounts.sum(repeats.stream().map(Measurement::counts).toList());
		Histogram all = latency.all(counts.unanswered(), facts.requestTimeoutMicros());
		double rps = median(repeats, Measurement::rps);
		double ceiling = facts.ceilingRps();
		long requests = counts.total();
		double errorPercent = (requests > 0) ? 100.0 * counts.errors() / requests : Double.NaN;
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
		double rpsMin = min(repeats, Measurement::rps);
		double rpsMax = max(repeats, Measurement::rps);
		if (repeats.size() > 1 && rps > 0 && 100 * (rpsMax - rpsMin) / rps > this.thresholds.repeatSpreadPercent()) {
			reasons.add(String.format(Locale.ROOT, "repeats spread %.0f%% of the median rps > %.0f%%", 100 * (rpsMax - rpsMin) / rps,
					this.thresholds.repeatSpreadPercent()));
		}
		// CPU divided by requests is a cost per request only when most were answered: when more than half failed
		// (a dead service, refused connections, timeouts) it measures the failure, and a few requests over a busy
		// second gave figures 100 times the real cost. Such levels show none.
		boolean perRequest = errorPercent <= MAX_ERROR_PERCENT_FOR_COST;
		List<String> reports = repeats.stream().flatMap(m -> m.gatlingReports().stream()).toList();
		List<Measurement.InjectorShare> injectors = new ArrayList<>();
		for (int i = 0; i < repeats.size(); i++) {
			String prefix = (repeats.size() > 1) ? "repeat " + (i + 1) + " " : "";
			for (Measurement.InjectorShare share : repeats.get(i).injectors()) {
				injectors.add(new Measurement.InjectorShare(prefix + share.name(), share.requests(), share.errors(), share.p99Ms(),
						share.cpuPercent(), share.processors()));
			}
		}
		return new LevelResult(facts.variant(), facts.level(), repeats.size(), rps,
				rpsMin, rpsMax, ceiling, rps / ceiling, Latency.millis(all, 50), Latency.millis(all, 95),
				Latency.millis(all, 99), (all.getTotalCount() == 0) ? Double.NaN : all.getMaxValue() / 1000.0,
				latency.okMillis(50), latency.okMillis(95), latency.okMillis(99), latency.okMaxMillis(), requests,
				counts.ko4xx(), counts.ko5xx(), counts.koTimeout(), counts.koConnection(), counts.koCheck(), counts.unanswered(),
				errorPercent, max(repeats, m -> (m.stall().rows() > 0) ? m.stall().seconds() : Double.NaN),
				median(repeats, Measurement::serviceCpuPercent),
				perRequest ? median(repeats, Measurement::cpuMsPerRequest) : Double.NaN,
				median(repeats, Measurement::warmupCpuMsPerRequest), sampled(repeats), median(repeats, Measurement::injectorCpuPercent),
				median(repeats, Measurement::injectorCoresBusyPercent), max(repeats, m -> m.probes().p99LateMs()),
				median(repeats, Measurement::downstreamP99OverheadMs),
				perRequest ? Headroom.median(repeats.stream().map(Measurement::headroom).toList(), this.thresholds.injectorBusyPercent())
						: Headroom.UNKNOWN, verdict,
				List.copyOf(reasons), List.copyOf(evidence),
				List.copyOf(injectors), reports);
	}

	/**
	 * The measurement is judged first, then the service: INTERRUPTED when the person stopped the run; FAILED when the
	 * service died or ran out of memory (no harness fault does that); INVALID when the harness was the limit or broke,
	 * or a check could not be computed (whatever else the service did: its symptoms are listed, not judged); FAILED
	 * when the service broke otherwise; OK.
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
			return (facts.notRun() != null) ? Verdict.valueOf(facts.notRun()) : Verdict.FAILED;
		}
		List<String> invalid = harnessProblems(m);
		List<String> failed = serviceProblems(m);
		if (!facts.serviceAlive() || facts.outOfMemory()) {
			// No harness fault kills a process or fills its heap: a service that died is FAILED whatever else went
			// wrong (a dead service makes the injector spin on refused connections and saturate its cores).
			reasons.addAll(failed);
			if (!invalid.isEmpty()) {
				reasons.add("the harness was off too: " + String.join(", ", invalid));
			}
			evidence.addAll(facts.evidence());
			return Verdict.FAILED;
		}
		if (!invalid.isEmpty()) {
			reasons.addAll(invalid);
			if (!failed.isEmpty()) {
				reasons.add("the service's symptoms, not judged: " + String.join(", ", failed));
			}
			evidence.addAll(facts.evidence());
			return Verdict.INVALID;
		}
		if (!failed.isEmpty()) {
			reasons.addAll(failed);
			evidence.addAll(facts.evidence());
			return Verdict.FAILED;
		}
		return Verdict.OK;
	}

	/** What made the measurement untrustworthy: the injector, the downstream, the warm-up, missing data. */
	private List<String> harnessProblems(Measurement m) {
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
			if (Double.isNaN(m.injectorCoresBusyPercent())) {
				invalid.add("the injector cores' load could not be computed (no CPU samples)");
			}
			else if (m.injectorCoresBusyPercent() > this.thresholds.injectorBusyPercent()) {
				invalid.add(String.format(Locale.ROOT, "injector cores %.0f%% busy > %.0f%% (injector and downstream share them)",
						m.injectorCoresBusyPercent(), this.thresholds.injectorBusyPercent()));
			}
			invalid.addAll(downstreamProblems(m));
			if (m.stall().rows() == 0) {
				invalid.add("the stall check could not be computed (the injector wrote no completions in the window)");
			}
		}
		if (!facts.warmedUp()) {
			invalid.add("no warm-up: a cold JVM runs at a fraction of its speed");
		}
		if (!Double.isNaN(m.warmupCpuMsPerRequest()) && m.cpuMsPerRequest() > 0
				&& m.warmupCpuMsPerRequest() > this.thresholds.notWarmRatio() * m.cpuMsPerRequest()) {
			invalid.add(String.format(Locale.ROOT, "not warm: the warm-up's last %d s cost %.2f ms CPU per request, this level %.2f (> %.1f×)",
					Measurement.WARMUP_TAIL_SECONDS, m.warmupCpuMsPerRequest(), m.cpuMsPerRequest(), this.thresholds.notWarmRatio()));
		}
		return invalid;
	}

	private List<String> downstreamProblems(Measurement m) {
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
			invalid.add(String.format(Locale.ROOT, "downstream p99 %.0f ms late > %.0f ms (probed end to end)", probes.p99LateMs(), limit));
		}
		return invalid;
	}

	/** What broke in the service: it died, ran out of memory, stalled, refused, or failed too many requests. */
	private List<String> serviceProblems(Measurement m) {
		LevelFacts facts = m.facts();
		List<String> failed = new ArrayList<>();
		if (!facts.serviceAlive()) {
			failed.add("the service died" + ((facts.exitCode() != null) ? " (exit code " + facts.exitCode() + ")" : ""));
		}
		if (facts.outOfMemory()) {
			failed.add("OutOfMemoryError in the service log");
		}
		if (m.window() == null) {
			return failed;
		}
		RequestCounts counts = m.counts();
		if (counts.koConnection() > 0) {
			failed.add(counts.koConnection() + " connections refused or reset");
		}
		double errorPercent = (counts.total() > 0) ? 100.0 * counts.errors() / counts.total() : 0;
		if (errorPercent > this.thresholds.errorPercent()) {
			failed.add(String.format(Locale.ROOT, "errors %.1f%% > %.0f%%%s", errorPercent, this.thresholds.errorPercent(),
					(counts.koTimeout() + counts.unanswered() > 0)
							? " (" + (counts.koTimeout() + counts.unanswered()) + " timed out or unanswered)" : ""));
		}
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

	/** Every declared metric, its repeats combined as it declares. */
	private static Map<Metric, Double> sampled(List<Measurement> repeats) {
		Map<Metric, Double> sampled = new EnumMap<>(Metric.class);
		for (Metric metric : Metric.values()) {
			sampled.put(metric, metric.combine(repeats, m -> m.sampled().getOrDefault(metric, Double.NaN)));
		}
		return Collections.unmodifiableMap(sampled);
	}

	static <T> double median(List<T> repeats, ToDoubleFunction<T> metric) {
		double[] values = repeats.stream().mapToDouble(metric).filter(v -> !Double.isNaN(v)).sorted().toArray();
		if (values.length == 0) {
			return Double.NaN;
		}
		int middle = values.length / 2;
		return (values.length % 2 == 1) ? values[middle] : (values[middle - 1] + values[middle]) / 2;
	}

	private static double min(List<Measurement> repeats, ToDoubleFunction<Measurement> metric) {
		return repeats.stream().mapToDouble(metric).filter(v -> !Double.isNaN(v)).min().orElse(Double.NaN);
	}

	/** The largest of the repeats' figures, ignoring a NaN; NaN when none could be computed. */
	static <T> double max(List<T> repeats, ToDoubleFunction<T> metric) {
		return repeats.stream().mapToDouble(metric).filter(v -> !Double.isNaN(v)).max().orElse(Double.NaN);
	}

}
