package lab.report;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import lab.analyse.Manifest;
import lab.analyse.RunAnalysis;
import lab.analyse.evidence.ClassHistogram;
import lab.analyse.evidence.PinnedSite;
import lab.analyse.judge.Figure;
import lab.analyse.judge.Figures;
import lab.analyse.judge.LevelResult;
import lab.analyse.judge.Rule;
import lab.analyse.judge.Thresholds;
import lab.analyse.measure.RequestFigures;
import lab.analyse.profile.MemoryProfile;
import lab.analyse.search.SearchSummary;
import lab.analyse.search.VarianceStudy;
import lab.layout.Level;
import lab.plan.Variant;
import lab.plan.Variants;

/**
 * What the report's templates show of one run (summary.md and report.html read the same scope): the manifest's rows,
 * each variant's verdict, each level's row with its timeline's link, pinning sites, memory lines, how it was judged.
 * Built from the analysis alone.
 */
final class ReportScope {

	private ReportScope() {
	}

	/** "; as a crossing 2,310 (2,200-2,420, 3 rounds); 0.62 (...) × app-webflux" for a searched variant, else "". */
	static String crossing(List<SearchSummary> searches, String variant) {
		String cell = SearchSection.cell(searches, variant);
		return (cell == null) ? "" : "; as a crossing " + cell;
	}

	/** The question the run answers: of the lab's concurrency models, or of the arms of the user's own service. */
	static String question(RunAnalysis analysis) {
		if (analysis.variants().own().isEmpty()) {
			return "which concurrency model serves the most users on a small box, at what latency, CPU, GC and memory cost, and where does each break?";
		}
		String service = analysis.manifest().path("ownService").path("file").path("name").asString("your service");
		return "which arm of " + service + " (" + String.join(", ", analysis.variants().own().stream().map(Variant::name).toList())
				+ ") serves the most users within the target, at what latency, CPU, GC and memory cost, what limited each, and where does each break?";
	}

	/** The templates' scope of one analysed run. */
	static Map<String, Object> of(RunAnalysis analysis) {
		Path results = analysis.results();
		Manifest manifest = Manifest.parse(analysis.manifest());
		Thresholds thresholds = analysis.thresholds();
		String rejudged = analysis.rejudged();
		List<LevelResult> levels = analysis.levels();
		List<MemoryProfile> memory = analysis.memory();
		List<VariantVerdict> verdicts = verdicts(analysis);
		String loadUnit = loadUnit(levels);
		Map<String, Object> scope = new LinkedHashMap<>();
		scope.put("scenario", manifest.scenarioName("unknown"));
		scope.put("description", (manifest.scenario() != null) ? manifest.scenario().description() : "");
		scope.put("question", question(analysis));
		scope.put("loadUnit", loadUnit);
		List<Figure> figures = Figures.of(levels);
		scope.put("mainColumns", columns(figures, Figure.Table.MAIN));
		// A request's line under its level spans the figures, target, verdict and limit.
		scope.put("requestSpan", columns(figures, Figure.Table.MAIN).size() + 3);
		scope.put("detailColumns", columns(figures, Figure.Table.DETAIL));
		List<Map<String, String>> manifestRows = new ArrayList<>(ManifestRows.of(manifest));
		manifestRows.addAll(clientRows(analysis.clients()));
		scope.put("manifest", manifestRows);
		scope.put("sharedWith", (manifest.sharedWith() != null) ? "This run shared its host with another lab run (--allow-concurrent: "
				+ manifest.sharedWith() + "): both measured each other's load on the same cores; compare its figures with care." : null);
		String target = manifest.target().describe();
		scope.put("target", target);
		scope.put("targetDeclared", manifest.scenario() != null && manifest.scenario().targetDeclared());
		List<SearchSummary> searches = analysis.searches();
		scope.put("verdicts", verdicts.stream().map(v -> Map.of("variant", v.variant(), "model", v.model(), "sentence", v.sentence(loadUnit),
				"target", v.targetSentence(target, loadUnit) + crossing(searches, v.variant()))).toList());
		scope.put("searches", SearchSection.scope(searches, loadUnit));
		scope.put("hasSearches", !searches.isEmpty());
		scope.put("tune", TuneSection.scope(analysis.tune(), loadUnit));
		scope.put("variance", variance(results));
		CapacityMap map = CapacityMap.of(verdicts, levels, manifest, searches, analysis.variants());
		scope.put("hasCapacityMap", !map.isEmpty());
		scope.put("capacityMap", map.scope(loadUnit));
		Starts starts = Starts.of(analysis.series());
		scope.put("hasStarts", !starts.isEmpty());
		scope.put("starts", starts.rows());
		Map<String, String> timelines = Timelines.links(results, analysis.series());
		scope.put("rows", levels.stream().map(r -> {
			Map<String, Object> row = row(r, figures);
			row.put("timeline", timelines.get(r.variant() + "/" + r.load()));
			return row;
		}).toList());
		List<Map<String, String>> pinned = pinnedRows(levels);
		scope.put("pinned", pinned);
		scope.put("hasPinned", !pinned.isEmpty());
		scope.put("memory", memory.stream().map(ReportScope::memoryRow).toList());
		scope.put("hasMemory", !memory.isEmpty());
		String harnessCpus = (manifest.cpus() != null) ? manifest.cpus().getOrDefault("downstreamAndInjector", "all") : "all";
		scope.put("harnessCoresNote", harnessCoresNote(harnessCpus, levels));
		scope.put("hasDatabase", levels.stream().anyMatch(r -> Double.isFinite(r.headroom().databaseMsPerRequest())));
		scope.put("busyLimit", Summaries.number(thresholds.get(Rule.INJECTOR_BUSY)));
		scope.put("thresholds", Rule.howJudged(thresholds) + ((rejudged != null) ? " " + rejudged : ""));
		scope.put("pinnedThreshold", (manifest.pinnedThreshold() != null) ? manifest.pinnedThreshold()
				: "20 ms (micrometer-java21's fixed threshold; runs before the lab lowered it)");
		scope.put("interrupted", levels.stream().anyMatch(r -> r.verdict() == LevelResult.Verdict.INTERRUPTED));
		scope.put("renderedAt", Instant.now().toString());
		return java.util.Collections.unmodifiableMap(scope);
	}

	/** A variance study's text ({@code --scenario variance}), from its record; null for any other run or an unreadable record. */
	static String variance(Path results) {
		try {
			return (results == null) ? null : VarianceStudy.read(results).map(VarianceStudy::text).orElse(null);
		}
		catch (java.io.IOException ex) {
			return "The variance study's record could not be read: " + ex.getMessage();
		}
	}

	/** What a level's load counts: offered arrivals when any level is open, users otherwise. */
	static String loadUnit(List<LevelResult> levels) {
		return levels.stream().anyMatch(r -> r.level() instanceof Level.Open) ? "requests/s offered" : "users";
	}

	/** Every level's pinning sites, one row each, most pinned time first within a level. */
	static List<Map<String, String>> pinnedRows(List<LevelResult> levels) {
		List<Map<String, String>> rows = new ArrayList<>();
		for (LevelResult r : levels) {
			for (PinnedSite site : r.pinnedSites()) {
				Map<String, String> row = new LinkedHashMap<>();
				row.put("variant", r.variant());
				row.put("load", Summaries.number(r.load()));
				row.put("frame", site.frame());
				row.put("library", site.library());
				row.put("events", Summaries.number(site.events()));
				row.put("totalMs", Summaries.number(site.totalMs()));
				row.put("maxMs", Summaries.decimal(site.maxMs()));
				rows.add(row);
			}
		}
		return rows;
	}

	/** Each service's downstream client as it read it back, one manifest row per directory it was kept in. */
	static List<Map<String, String>> clientRows(Map<String, String> clients) {
		return clients.entrySet().stream().map(e -> Map.of("key", "downstream client: " + e.getKey(), "value", e.getValue())).toList();
	}

	/** One variant's memory line: the fits, the prediction and its outcome, the top classes per request in flight. */
	static Map<String, Object> memoryRow(MemoryProfile m) {
		Map<String, Object> row = new LinkedHashMap<>();
		row.put("variant", m.variant());
		row.put("heapBase", Summaries.number(m.heap().baseMiB()));
		row.put("heapPerRequest", kb(m.heap().kbPerRequest()));
		row.put("heapFit", fit(m.heap()));
		row.put("rssBase", Summaries.number(m.rss().baseMiB()));
		row.put("rssPerRequest", kb(m.rss().kbPerRequest()));
		row.put("rssFit", fit(m.rss()));
		row.put("fitOver", m.fitOver());
		row.put("heapMax", Summaries.number(m.heapMaxMiB()));
		row.put("predicted", Double.isFinite(m.predictedBreak()) ? String.format(java.util.Locale.ROOT, "%,.0f", m.predictedBreak()) : "-");
		row.put("observed", m.observedBreak());
		row.put("bornOut", m.bornOut());
		row.put("held", (m.highestHeld() > 0) ? String.format(java.util.Locale.ROOT, "%,d", m.highestHeld()) : "none");
		row.put("points", String.join("; ", m.points().stream().map(p -> String.format(java.util.Locale.ROOT, "%s: %,.0f in flight%s, %,.0f / %,.0f MiB",
				p.label(), p.inFlight(), (p.inFlight() > 0 && Double.isFinite(p.served())) ? String.format(java.util.Locale.ROOT, " (≈ %,.0f being served)", p.served()) : "",
				p.liveHeapMiB(), p.rssMiB())).toList()));
		row.put("topAt", (m.topClassesAt() != null) ? m.topClassesAt() : "-");
		row.put("top", m.topClasses().isEmpty() ? "-" : String.join(", ", m.topClasses().stream().map(ReportScope::share).toList()));
		return row;
	}

	private static String share(ClassHistogram.Share share) {
		return String.format(java.util.Locale.ROOT, "%s %s (%.1f objects)", share.className(), bytes(share.bytesPerRequest()), share.instancesPerRequest());
	}

	private static String bytes(double value) {
		return (Math.abs(value) >= 1024) ? String.format(java.util.Locale.ROOT, "%.1f KB", value / 1024) : String.format(java.util.Locale.ROOT, "%.0f B", value);
	}

	private static String kb(double value) {
		return Double.isFinite(value) ? String.format(java.util.Locale.ROOT, "%.1f", value) : "-";
	}

	private static String fit(MemoryProfile.Fit fit) {
		return Double.isFinite(fit.r2()) ? String.format(java.util.Locale.ROOT, "R² %.2f, %d points", fit.r2(), fit.points())
				: fit.points() + " point" + ((fit.points() == 1) ? "" : "s");
	}

	/** Each variant's verdict over its levels, its model in the words of the variants the run knew. */
	static List<VariantVerdict> verdicts(RunAnalysis analysis) {
		return verdicts(analysis.levels(), analysis.variants());
	}

	static List<VariantVerdict> verdicts(List<LevelResult> levels, Variants variants) {
		Map<String, List<LevelResult>> byVariant = new LinkedHashMap<>();
		levels.forEach(r -> byVariant.computeIfAbsent(r.variant(), k -> new ArrayList<>()).add(r));
		return byVariant.entrySet().stream().map(e -> VariantVerdict.of(e.getKey(), variants.modelOf(e.getKey()), e.getValue())).toList();
	}

	/** The figures the levels were computed with, in declaration order (the lab's when there is no level). */
	/**
	 * What ran on the harness cores, each by what it is: the injector and the runner always, the downstream when one ran,
	 * a PostgreSQL the lab started when it was placed there (its CPU counted as its own, not the harness's).
	 */
	static String harnessCoresNote(String harnessCpus, List<LevelResult> levels) {
		if (harnessCpus.equals("all")) {
			return "every core of the host, the service's included: no pinning";
		}
		List<String> there = new ArrayList<>(List.of("the injector"));
		if (levels.stream().anyMatch(r -> Double.isFinite(r.headroom().downstreamMsPerRequest()))) {
			there.add("the downstream");
		}
		there.add("the runner");
		boolean database = levels.stream().anyMatch(r -> r.headroom().databaseOnHarness());
		String list = String.join(", ", there.subList(0, there.size() - 1)) + " and " + there.get(there.size() - 1);
		return "CPU " + harnessCpus + ", shared by " + list + (database ? "; and the service's PostgreSQL (placement harness), whose CPU is its own "
				+ "figure (database ms/req), taken out of the cores' before the injector is judged" : "");
	}


	/**
	 * A table's columns, in declaration order, each with what it means (the header's tooltip): one per figure the
	 * table shows, a figure joined to the one before it sharing its column.
	 */
	static List<Map<String, String>> columns(List<Figure> figures, Figure.Table table) {
		List<Map<String, String>> columns = new ArrayList<>();
		for (Figure figure : figures) {
			if (figure.shown().table() == table && figure.shown().column() != null) {
				columns.add(Map.of("column", figure.shown().column(), "meaning", figure.meaning().replace("`", "")
						+ (figure.unit().isEmpty() ? "" : " (" + figure.unit() + ")")));
			}
		}
		return columns;
	}

	/** A level's cells of a table, one per column of {@link #columns}: a joined figure after its column's, " / " between. */
	static List<String> cells(LevelResult r, List<Figure> figures, Figure.Table table) {
		List<String> cells = new ArrayList<>();
		for (Figure figure : figures) {
			if (figure.shown().table() != table) {
				continue;
			}
			String cell = (figure.shown().cell() != null) ? figure.shown().cell().apply(r) : figure.shown().format().write(r.value(figure));
			if (figure.shown().column() == null && !cells.isEmpty()) {
				cells.set(cells.size() - 1, cells.get(cells.size() - 1) + " / " + cell);
			}
			else {
				cells.add(cell);
			}
		}
		return cells;
	}

	/** "order: 3,012 requests, p50 12 / p99 230 ms, errors 0.00%; its target p99<=300ms,errors<=0.1% met". */
	static String requestLine(RequestFigures request) {
		String target = (request.target() == null) ? "" : "; its target " + request.target() + " " + (request.meetsTarget() ? "met" : "missed");
		return String.format(java.util.Locale.ROOT, "%s: %s requests, p50 %s / p99 %s ms, errors %s%%%s", request.name(),
				Summaries.number(request.requests()), Summaries.number(request.p50Ms()), Summaries.number(request.p99Ms()),
				Double.isNaN(request.errorPercent()) ? "-" : String.format(java.util.Locale.ROOT, "%.2f", request.errorPercent()), target);
	}

	static Map<String, Object> row(LevelResult r, List<Figure> figures) {
		Map<String, Object> row = new LinkedHashMap<>();
		row.put("variant", r.variant());
		row.put("load", Summaries.number(r.load()) + ((r.repeats() > 1) ? " ×" + r.repeats() : ""));
		row.put("rps", Summaries.number(r.rps()) + ((r.repeats() > 1) ? " (" + Summaries.number(r.rpsMin()) + "–" + Summaries.number(r.rpsMax()) + ")" : ""));
		// The declared figures' cells, table by table (their headers: columns()).
		row.put("main", cells(r, figures, Figure.Table.MAIN));
		row.put("detail", cells(r, figures, Figure.Table.DETAIL));
		row.put("injectorCpu", Summaries.number(r.injectorCpuPercent()));
		row.put("injectorBusy", Summaries.number(r.injectorCoresBusyPercent()));
		row.put("downstreamOverhead", Summaries.number(r.downstreamP99LateMs()));
		row.put("injectorMs", Summaries.decimal3(r.headroom().injectorMsPerRequest()));
		row.put("downstreamMs", Summaries.decimal3(r.headroom().downstreamMsPerRequest()));
		row.put("harnessMs", Summaries.decimal3(r.headroom().harnessMsPerRequest()));
		row.put("databaseMs", Summaries.decimal3(r.headroom().databaseMsPerRequest()));
		row.put("injectorWait", Summaries.decimal3(r.value(Figures.INJECTOR_WAIT_MS_PER_SLICE)));
		row.put("harnessCores", r.headroom().harnessCores());
		row.put("validUpTo", Summaries.number(r.headroom().validUpToRps()));
		row.put("overValid", r.headroom().validUpToRps() < r.rps());
		row.put("verdict", r.verdict().name());
		row.put("meetsTarget", (r.meetsTarget() == null) ? "-" : r.meetsTarget() ? "met" : "missed");
		String limit = r.limit();
		row.put("limit", limit.isEmpty() ? "-" : limit);
		row.put("verdictClass", r.verdict().name().toLowerCase(java.util.Locale.ROOT));
		// A service of the user's own: each named request's own figures, a line under the level.
		row.put("byRequest", r.byRequest().stream().map(ReportScope::requestLine).toList());
		// The first reason is the cause (a FAILED level's: what broke the service); what followed from it goes under it.
		row.put("cause", r.reasons().isEmpty() ? "" : r.reasons().get(0));
		List<String> symptoms = r.reasons().isEmpty() ? List.of() : r.reasons().subList(1, r.reasons().size());
		row.put("symptoms", symptoms);
		row.put("hasSymptoms", !symptoms.isEmpty());
		row.put("symptomCount", symptoms.size());
		row.put("evidence", r.evidence());
		row.put("gatlingReports", r.gatlingReports());
		// Each Gatling report covers one injector's share only: what each did, next to the merged row.
		row.put("injectors", String.join("; ", r.injectors().stream().map(share -> share.name() + " " + Summaries.number(share.requests())
				+ " requests, " + share.errors() + " errors, p99 " + Summaries.number(share.p99Ms()) + " ms, CPU "
				+ Summaries.number(share.cpuPercent()) + "% of " + share.processors() + " cores").toList()));
		return row;
	}

}
