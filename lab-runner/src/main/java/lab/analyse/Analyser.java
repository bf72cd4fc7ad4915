package lab.analyse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

import lab.analyse.LevelResult.Verdict;

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
		List<Path> dirs;
		try (Stream<Path> files = Files.find(results, 3, (path, attributes) -> path.getFileName().toString().equals("level.json"))) {
			dirs = files.map(Path::getParent).sorted().toList();
		}
		for (Path dir : dirs) {
			Measurement measurement = Measurement.of(dir, results);
			LevelFacts facts = measurement.facts();
			groups.computeIfAbsent(facts.variant() + "/" + facts.load(), k -> new ArrayList<>()).add(measurement);
		}
		List<LevelResult> levels = new ArrayList<>();
		for (List<Measurement> repeats : groups.values()) {
			levels.add(combine(repeats));
		}
		levels.sort(Comparator.comparingInt((LevelResult r) -> order(variantOrder, r.variant())).thenComparingInt(LevelResult::load));
		return levels;
	}

	private static int order(List<String> variantOrder, String variant) {
		int index = variantOrder.indexOf(variant);
		return (index < 0) ? Integer.MAX_VALUE : index;
	}

	public LevelResult analyseOne(Measurement measurement) {
		return combine(List.of(measurement));
	}

	LevelResult combine(List<Measurement> repeats) {
		LevelFacts facts = repeats.get(0).facts();
		Latency latency = Latency.merge(repeats.stream().map(Measurement::latency).toList());
		RequestCounts counts = RequestCounts.sum(repeats.stream().map(Measurement::counts).toList());
		double rps = median(repeats, Measurement::rps);
		double ceiling = facts.ceilingRps();
		long requests = counts.ok() + counts.errors();
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
		List<String> reports = repeats.stream().flatMap(m -> m.gatlingReports().stream()).toList();
		List<Measurement.InjectorShare> injectors = new ArrayList<>();
		for (int i = 0; i < repeats.size(); i++) {
			String prefix = (repeats.size() > 1) ? "repeat " + (i + 1) + " " : "";
			for (Measurement.InjectorShare share : repeats.get(i).injectors()) {
				injectors.add(new Measurement.InjectorShare(prefix + share.name(), share.requests(), share.errors(), share.p99Ms(),
						share.cpuPercent(), share.processors()));
			}
		}
		return new LevelResult(facts.variant(), facts.users(), facts.ratePerSecond(), facts.load(), repeats.size(), rps,
				min(repeats, Measurement::rps), max(repeats, Measurement::rps), ceiling, rps / ceiling,
				latency.okMillis(50), latency.okMillis(95), latency.okMillis(99), latency.okMaxMillis(), requests,
				counts.ko4xx(), counts.ko5xx(), counts.koTimeout(), counts.koConnection(), counts.koCheck(), errorPercent,
				median(repeats, Measurement::serviceCpuPercent), median(repeats, Measurement::cpuMsPerRequest),
				median(repeats, Measurement::gcPercent), max(repeats, Measurement::peakHeapMiB),
				max(repeats, Measurement::peakRssMiB), max(repeats, Measurement::peakNativeThreads),
				max(repeats, Measurement::peakVirtualThreads), median(repeats, Measurement::pinnedEvents),
				median(repeats, Measurement::contextSwitchesPerSecond), median(repeats, Measurement::injectorCpuPercent),
				median(repeats, Measurement::injectorCoresBusyPercent), median(repeats, Measurement::downstreamP99OverheadMs),
				verdict, List.copyOf(reasons), List.copyOf(evidence), List.copyOf(injectors), reports);
	}

	/** FAILED when the service broke; INVALID when the measurement was the limit; OK otherwise. */
	Verdict judge(Measurement m, Set<String> reasons, Set<String> evidence) {
		LevelFacts facts = m.facts();
		if (!facts.problems().isEmpty()) {
			// The level never ran (start-up or contract failure, or an earlier level broke the service).
			reasons.addAll(facts.problems());
			evidence.addAll(facts.evidence());
			return Verdict.FAILED;
		}
		List<String> failed = new ArrayList<>();
		if (!facts.serviceAlive()) {
			failed.add("the service died" + ((facts.exitCode() != null) ? " (exit code " + facts.exitCode() + ")" : ""));
		}
		if (facts.outOfMemory()) {
			failed.add("OutOfMemoryError in the service log");
		}
		if (m.window() == null) {
			failed.add("no load window: the injector did not finish this level");
		}
		RequestCounts counts = m.counts();
		if (counts.koConnection() > 0) {
			failed.add(counts.koConnection() + " connections refused or reset");
		}
		double errorPercent = (counts.total() > 0) ? 100.0 * counts.errors() / counts.total() : 0;
		if (errorPercent > this.thresholds.errorPercent()) {
			failed.add(String.format("errors %.1f%% > %.0f%%", errorPercent, this.thresholds.errorPercent()));
		}
		if (m.window() != null && counts.total() == 0 && m.latency().ok().getTotalCount() == 0) {
			failed.add("no request completed in the window");
		}
		if (!failed.isEmpty()) {
			reasons.addAll(failed);
			evidence.addAll(facts.evidence());
			return Verdict.FAILED;
		}
		List<String> invalid = new ArrayList<>();
		if (m.injectorCoresBusyPercent() > this.thresholds.injectorBusyPercent()) {
			invalid.add(String.format("injector cores %.0f%% busy > %.0f%% (injector and downstream share them)",
					m.injectorCoresBusyPercent(), this.thresholds.injectorBusyPercent()));
		}
		double overheadLimit = this.thresholds.downstreamOverheadLimitMs(facts.delayMs());
		if (m.downstreamP99OverheadMs() > overheadLimit) {
			invalid.add(String.format("downstream p99 %.0f ms over its delay > %.0f ms", m.downstreamP99OverheadMs(), overheadLimit));
		}
		if (!facts.warmedUp()) {
			invalid.add("no warm-up: a cold JVM runs at a fraction of its speed");
		}
		if (facts.cappedFrom() > 0) {
			invalid.add("descriptor cap: ran " + facts.users() + " of " + facts.cappedFrom() + " users (ulimit -n)");
		}
		reasons.addAll(invalid);
		return invalid.isEmpty() ? Verdict.OK : Verdict.INVALID;
	}

	static double median(List<Measurement> repeats, ToDoubleFunction<Measurement> metric) {
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

	private static double max(List<Measurement> repeats, ToDoubleFunction<Measurement> metric) {
		return repeats.stream().mapToDouble(metric).filter(v -> !Double.isNaN(v)).max().orElse(Double.NaN);
	}

}
