package lab.analyse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import lab.analyse.evidence.PinnedSite;
import lab.analyse.judge.Catalogue;
import lab.analyse.judge.Figure;
import lab.analyse.judge.FigureRule;
import lab.analyse.judge.Figures;
import lab.analyse.judge.LevelResult;
import lab.analyse.judge.LevelResult.Verdict;
import lab.analyse.judge.Repeats;
import lab.analyse.judge.Rule;
import lab.analyse.judge.Thresholds;
import lab.analyse.measure.Headroom;
import lab.analyse.measure.Measurement;
import lab.analyse.measure.RequestFigures;
import lab.analyse.profile.LevelSeries;
import lab.analyse.profile.MemoryProfile;
import lab.analyse.read.LevelFacts;
import lab.analyse.read.LevelFiles;
import lab.analyse.search.SearchRecord;
import lab.analyse.search.SearchSummary;
import lab.analyse.search.TuneSummary;
import lab.json.Json;
import lab.layout.LatencyTarget;
import lab.layout.RunDir;
import lab.layout.ServiceDir;
import lab.plan.Variant;
import lab.plan.Variants;
import lab.verify.ClientReadback;
import tools.jackson.databind.JsonNode;

/**
 * Turns a results directory into one {@link LevelResult} per variant and level: repeats are combined (median of
 * rates, merged histograms for percentiles, summed counts) and every level is judged against {@link Thresholds}.
 */
public final class Analyser {

	private final Thresholds thresholds;

	private final Catalogue catalogue;

	private final LatencyTarget target;

	public Analyser(Thresholds thresholds) {
		this(thresholds, Catalogue.STANDARD);
	}

	/** An analysis computing and judging by {@code catalogue}'s figures and rules (the lab's: {@link Catalogue#STANDARD}). */
	public Analyser(Thresholds thresholds, Catalogue catalogue) {
		this(thresholds, catalogue, LatencyTarget.DEFAULT);
	}

	private Analyser(Thresholds thresholds, Catalogue catalogue, LatencyTarget target) {
		this.thresholds = thresholds;
		this.catalogue = catalogue;
		this.target = target;
	}

	/** This analysis with every level judged against {@code target} besides its verdict (the lab's default otherwise). */
	public Analyser withTarget(LatencyTarget target) {
		return new Analyser(this.thresholds, this.catalogue, target);
	}

	/** Every level directory (one holding a level.json) under {@code results}, grouped by variant and level. */
	public List<LevelResult> analyse(Path results, List<String> variantOrder) throws IOException {
		List<Measurement> measurements = new ArrayList<>();
		for (Path dir : LevelFiles.levelDirs(results)) {
			measurements.add(Measurement.of(LevelFiles.read(dir, results)));
		}
		return judge(measurements, variantOrder);
	}

	/**
	 * The whole results directory, read once: each level's files into its figures and its timeline series, the levels
	 * judged, the memory profiles, the services' downstream clients. {@code manifest}: the run's manifest.json as
	 * written (it names a service of the user's own, whose arms are then the run's variants, in its file's order);
	 * {@code rejudged}: why the thresholds are not the ones recorded, else null.
	 */
	public RunAnalysis run(Path results, JsonNode manifest, String rejudged) throws IOException {
		Variants variants = Variants.ofManifest(manifest);
		List<Measurement> measurements = new ArrayList<>();
		List<LevelSeries> series = new ArrayList<>();
		for (Path dir : LevelFiles.levelDirs(results)) {
			LevelFiles files = LevelFiles.read(dir, results);
			measurements.add(Measurement.of(files));
			series.add(LevelSeries.of(files));
		}
		List<LevelResult> levels = judge(measurements, variants.names());
		// Each search probe's limit as today's analysis words it, not as the run wrote it into its record (a probe is a
		// level of its own: a round's or a re-run's directory).
		Map<String, String> limits = new LinkedHashMap<>();
		for (Measurement measurement : measurements) {
			if (!ServiceDir.rowSuffix(measurement.dir().getFileName().toString()).isEmpty()) {
				limits.put(results.relativize(measurement.dir()).toString(), analyseOne(measurement).limit());
			}
		}
		List<SearchSummary> searches = searches(results, limits);
		return new RunAnalysis(results, manifest, this.thresholds, rejudged, levels, MemoryProfile.analyse(results, levels, series), List.copyOf(series),
				clients(results), searches, variants, TuneSummary.read(results, manifest, searches, levels).orElse(null));
	}

	/** Measurements grouped by variant and level, repeats combined, judged, in report order. */
	private List<LevelResult> judge(List<Measurement> measurements, List<String> variantOrder) {
		Map<String, List<Measurement>> groups = new LinkedHashMap<>();
		for (Measurement measurement : measurements) {
			LevelFacts facts = measurement.facts();
			// Repeats of a level combine; a capacity search's probe run once more ("-again") or in a round of an interleaved
			// search ("-round<k>") is a row of its own.
			String name = measurement.dir().getFileName().toString();
			String suffix = ServiceDir.rowSuffix(name);
			String again = suffix.isEmpty() ? "" : "/" + suffix;
			groups.computeIfAbsent(facts.variant() + "/" + facts.load() + again, k -> new ArrayList<>()).add(measurement);
		}
		List<LevelResult> levels = new ArrayList<>();
		for (List<Measurement> repeats : groups.values()) {
			levels.add(combine(repeats));
		}
		// Variants in their order, each tuning of one variant after the default, then by load.
		levels.sort(Comparator.comparingInt((LevelResult r) -> order(variantOrder, Variant.moduleOf(r.variant())))
			.thenComparing(LevelResult::variant)
			.thenComparingInt(LevelResult::load));
		return nameCollapses(levels).stream().map(level -> level.withTarget(this.target)).toList();
	}

	/** Each interleaved capacity search's file, read and summarised, in file-name order. */
	public static List<SearchSummary> searches(Path results) throws IOException {
		return searches(results, Map.of());
	}

	/**
	 * The same, each probe's limit replaced by {@code limits}' for its level's directory (relative to {@code results})
	 * where it has one: a report re-rendered from raw data words what bound a knee by today's analysis.
	 */
	static List<SearchSummary> searches(Path results, Map<String, String> limits) throws IOException {
		List<SearchSummary> searches = new ArrayList<>();
		try (Stream<Path> files = Files.list(results)) {
			for (Path file : files.filter(f -> RunDir.isCapacitySearch(f.getFileName().toString())).sorted().toList()) {
				searches.add(SearchSummary.of(SearchRecord.of(Json.MAPPER.readTree(file.toFile())).withLimits(limits)));
			}
		}
		return List.copyOf(searches);
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
		LevelJudge judge = new LevelJudge(this.thresholds, this.catalogue);
		for (Measurement m : repeats) {
			Verdict one = judge.judge(m, reasons, evidence);
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
				List.copyOf(injectors), reports, PinnedSite.merge(repeats.stream().map(Measurement::pinnedSites).toList()),
				RequestFigures.median(repeats.stream().map(Measurement::byRequest).toList()));
	}

}
