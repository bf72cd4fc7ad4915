package lab.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import lab.analyse.Comparison;
import lab.analyse.LevelJson;
import lab.analyse.judge.Figure;
import lab.analyse.judge.LevelResult;
import lab.analyse.measure.RequestFigures;
import lab.analyse.search.BetweenRuns;
import lab.analyse.search.Interval;
import lab.analyse.search.SearchSummary;
import lab.analyse.search.TuneSummary;
import lab.layout.Level;
import lab.layout.RunDir;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** Writes {@code compare.json}, {@code compare.md} and {@code compare.html} of a {@link Comparison}. */
public final class CompareWriter {

	public static final String SCHEMA = "loom-lab/compare/1";

	/** The lab's JSON mapper for what it writes (indented; a {@code Level} by its field). */
	private static final JsonMapper json = LevelJson.json;

	/** Returns the path of compare.html. */
	public Path write(Comparison c, Path out) throws IOException {
		Files.createDirectories(out);
		List<BetweenRuns> between = c.between();
		List<BetweenRuns> pairs = c.pairs();
		List<ManifestDifference> differences = differences(c.runs());
		json.writeValue(out.resolve(RunDir.COMPARE_JSON).toFile(), summary(c, differences, between, pairs));
		boolean open = c.runs().stream().flatMap(r -> r.levels().stream()).anyMatch(l -> l.level() instanceof Level.Open);
		String loadUnit = open ? "requests/s offered" : "users";
		Map<String, Object> scope = new LinkedHashMap<>();
		scope.put("loadUnit", loadUnit);
		List<Map<String, Object>> runs = new ArrayList<>();
		for (int i = 0; i < c.runs().size(); i++) {
			Comparison.Run run = c.runs().get(i);
			runs.add(Map.of("name", run.name(), "dir", run.dir().toString(), "baseline", i == c.baseline(),
					"scenario", run.manifest().scenarioName("?"),
					"started", (run.manifest().startedAt() != null) ? run.manifest().startedAt() : "?",
					"report", out.relativize(run.dir().resolve(RunDir.REPORT)).toString()));
		}
		scope.put("runs", runs);
		scope.put("hasBaseline", c.hasBaseline());
		scope.put("baseline", c.hasBaseline() ? c.baselineRun().name() : "");
		scope.put("noise", Summaries.number(c.noisePercent()));
		scope.put("differences", differences.stream().map(d -> Map.of("key", d.key(), "values", d.values())).toList());
		scope.put("hasDifferences", !differences.isEmpty());
		List<LevelResult> all = c.runs().stream().flatMap(run -> run.levels().stream()).toList();
		List<Figure> figures = Comparison.compared(all);
		List<Figure> changed = Comparison.changed(all);
		scope.put("columns", figures.stream().map(f -> f.compared().column()).toList());
		scope.put("changeColumns", changed.stream().map(f -> "Δ " + f.compared().change()).toList());
		scope.put("rows", rows(c, figures, changed));
		List<Map<String, Object>> requests = requestRows(c);
		scope.put("requests", requests);
		scope.put("hasRequests", !requests.isEmpty());
		List<Map<String, Object>> searched = searchRows(c);
		scope.put("searches", searched);
		scope.put("hasSearches", !searched.isEmpty());
		List<Map<String, Object>> tuned = tuneRows(c);
		scope.put("tunes", tuned);
		scope.put("hasTunes", !tuned.isEmpty());
		scope.put("tuneAnswers", c.runs().stream().filter(run -> run.tune() != null)
			.map(run -> Map.of("name", run.name(), "answer", TuneSection.answer(run.tune(), loadUnit))).toList());
		// Every run's ratios beside each other, as a picture: in compare.html and as forest.png.
		org.knowm.xchart.XYChart forest = ForestPlot.ofRuns(c.runs().stream()
			.map(run -> ForestPlot.RunRatios.of(run.name(), run.searches().stream().filter(s -> !s.ratios().isEmpty()).findFirst().orElse(null))).toList());
		byte[] forestPng = (forest != null) ? org.knowm.xchart.BitmapEncoder.getBitmapBytes(forest, org.knowm.xchart.BitmapEncoder.BitmapFormat.PNG) : null;
		if (forestPng != null) {
			Files.write(out.resolve(RunDir.COMPARE_FOREST), forestPng);
		}
		scope.put("forest", (forestPng != null) ? Charts.encoded(forest.getTitle(), forestPng).dataUri() : null);
		scope.put("forestFile", RunDir.COMPARE_FOREST);
		scope.put("between", between.stream().map(CompareWriter::betweenRow).toList());
		scope.put("hasBetween", between.stream().anyMatch(b -> b.perRun().size() >= 2));
		scope.put("betweenPairs", pairs.stream().filter(b -> b.perRun().size() >= 2).map(CompareWriter::betweenRow).toList());
		scope.put("renderedAt", Instant.now().toString());
		Templates.render("compare.md.mustache", scope, out.resolve(RunDir.COMPARE_MD));
		Map<String, List<LevelResult>> series = new LinkedHashMap<>();
		for (Comparison.Run run : c.runs()) {
			for (LevelResult level : run.levels()) {
				series.computeIfAbsent(level.variant() + " · " + run.name(), k -> new ArrayList<>()).add(level);
			}
		}
		scope.put("charts", Charts.comparison(series, loadUnit));
		Path report = out.resolve(RunDir.COMPARE_HTML);
		Templates.render("compare.html.mustache", scope, report);
		return report;
	}

	/**
	 * Per variant searched round by round in any run: each run's capacity (crossing and interval) and its ratio to that
	 * run's baseline within rounds, "≈" where the run could not tell it from the baseline; "-" where a run did not search it.
	 */
	private static List<Map<String, Object>> searchRows(Comparison c) {
		List<String> variants = c.runs().stream().flatMap(run -> run.searches().stream()).flatMap(s -> s.entries().stream())
			.map(SearchSummary.EntryResult::entry).distinct().toList();
		List<Map<String, Object>> rows = new ArrayList<>();
		for (String variant : variants) {
			List<String> cells = new ArrayList<>();
			for (Comparison.Run run : c.runs()) {
				String cell = SearchSection.cell(run.searches(), variant);
				cells.add((cell == null) ? "-" : cell);
			}
			rows.add(Map.of("variant", variant, "cells", cells));
		}
		return rows;
	}

	/**
	 * Per arm of any tune run: each tune run's capacity (interval) from the last step the arm ran in, and its standing
	 * there (best, within noise, beaten); "-" where a run did not study it.
	 */
	private static List<Map<String, Object>> tuneRows(Comparison c) {
		List<String> arms = c.runs().stream().filter(run -> run.tune() != null).flatMap(run -> run.tune().arms().stream())
			.map(TuneSummary.Arm::label).distinct().toList();
		List<Map<String, Object>> rows = new ArrayList<>();
		for (String arm : arms) {
			List<String> cells = new ArrayList<>();
			for (Comparison.Run run : c.runs()) {
				cells.add((run.tune() == null) ? "-" : run.tune().arms().stream().filter(a -> a.label().equals(arm)).findFirst()
					.map(a -> a.capacity().asLoad() + ", " + a.standing()).orElse("-"));
			}
			rows.add(Map.of("arm", arm, "cells", cells));
		}
		return rows;
	}

	/** A between-runs table row: the variant, what it is relative to, each run's ratio and the verdict in words. */
	private static Map<String, Object> betweenRow(BetweenRuns b) {
		List<String> perRun = new ArrayList<>();
		for (int i = 0; i < b.perRun().size(); i++) {
			Interval own = b.ownIntervals().get(i);
			perRun.add(Interval.figure(b.perRun().get(i), false) + (own.hasSpread()
					? " (" + Interval.figure(own.low(), false) + "-" + Interval.figure(own.high(), false) + ")" : ""));
		}
		return Map.of("variant", b.entry(), "baseline", b.baseline(), "perRun", String.join(", ", perRun), "text", b.describe());
	}

	/** One table row per variant, load and run. */
	private static List<Map<String, Object>> rows(Comparison c, List<Figure> figures, List<Figure> changed) {
		List<Map<String, Object>> rows = new ArrayList<>();
		for (Comparison.Row row : c.rows()) {
			for (int i = 0; i < c.runs().size(); i++) {
				LevelResult level = row.levels().get(i);
				Comparison.Change change = row.changes().get(i);
				Map<String, Object> cells = new LinkedHashMap<>();
				cells.put("first", i == 0);
				cells.put("span", c.runs().size());
				cells.put("variant", row.variant());
				cells.put("load", Summaries.number(row.load()));
				cells.put("run", c.runs().get(i).name() + ((i == c.baseline()) ? " (baseline)" : ""));
				cells.put("values", figures.stream().map(f -> (level != null) ? f.shown().format().write(level.value(f)) : "-").toList());
				cells.put("verdict", (level != null) ? level.verdict().name() : "not measured");
				cells.put("verdictClass", (level != null) ? level.verdict().name().toLowerCase(java.util.Locale.ROOT) : "");
				List<String> why = new ArrayList<>();
				if (!change.note().isEmpty()) {
					why.add(change.note());
				}
				if (level != null) {
					why.addAll(level.reasons());
				}
				cells.put("why", String.join("; ", why));
				cells.put("changes", changed.stream().map(f -> change(change, change.percent(f))).toList());
				rows.add(cells);
			}
		}
		return rows;
	}

	/** A change with its mark: {@code *} beyond the bound (noise or the repeats' spread), nothing within it. */
	private static String change(Comparison.Change change, double percent) {
		if (!Double.isFinite(percent)) {
			return "";
		}
		return Comparison.signed(percent) + (change.beyond(percent) ? " *" : "");
	}

	/** A --service run's named requests, each level's p99 / p50 ms and errors by run, side by side ("-" where a run has none). */
	static List<Map<String, Object>> requestRows(Comparison c) {
		List<Map<String, Object>> rows = new ArrayList<>();
		for (Comparison.Row row : c.rows()) {
			List<String> names = row.levels().stream().filter(java.util.Objects::nonNull).flatMap(l -> l.byRequest().stream())
				.map(RequestFigures::name).distinct().toList();
			for (String name : names) {
				List<String> cells = new ArrayList<>();
				for (LevelResult level : row.levels()) {
					cells.add((level == null) ? "-" : level.byRequest().stream().filter(r -> r.name().equals(name)).findFirst()
						.map(r -> Summaries.number(r.p99Ms()) + " / " + Summaries.number(r.p50Ms()) + ", errors "
								+ (Double.isNaN(r.errorPercent()) ? "-" : String.format(java.util.Locale.ROOT, "%.2f%%", r.errorPercent())))
						.orElse("-"));
				}
				rows.add(Map.of("variant", row.variant(), "load", Summaries.number(row.load()), "request", name, "cells", cells));
			}
		}
		return rows;
	}

	/** A manifest line whose value is not the same in every run (in run order; "-" where a run lacks it). */
	public record ManifestDifference(String key, List<String> values) {
	}

	/** The manifest lines, as the report prints them, whose values differ between the runs; the start time left out. */
	static List<ManifestDifference> differences(List<Comparison.Run> runs) {
		List<Map<String, String>> byRun = new ArrayList<>();
		Set<String> keys = new LinkedHashSet<>();
		for (Comparison.Run run : runs) {
			Map<String, String> values = new LinkedHashMap<>();
			List<Map<String, String>> rows = new ArrayList<>(ManifestRows.of(run.manifest()));
			rows.addAll(ReportScope.clientRows(run.clients()));
			for (Map<String, String> row : rows) {
				values.merge(row.get("key"), row.get("value"), (a, b) -> a + "; " + b);
			}
			values.remove("started");
			keys.addAll(values.keySet());
			byRun.add(values);
		}
		List<ManifestDifference> differences = new ArrayList<>();
		for (String key : keys) {
			List<String> values = byRun.stream().map(byKey -> byKey.getOrDefault(key, "-")).toList();
			if (values.stream().distinct().count() > 1) {
				differences.add(new ManifestDifference(key, values));
			}
		}
		return differences;
	}

	private static ObjectNode summary(Comparison c, List<ManifestDifference> differences, List<BetweenRuns> betweenRuns, List<BetweenRuns> pairRuns) {
		List<LevelResult> all = c.runs().stream().flatMap(run -> run.levels().stream()).toList();
		List<Figure> figures = Comparison.compared(all);
		List<Figure> changed = Comparison.changed(all);
		ObjectNode root = json.createObjectNode();
		root.put("schema", SCHEMA);
		root.put("noisePercent", c.noisePercent());
		root.put("baseline", c.hasBaseline() ? c.baselineRun().name() : null);
		ArrayNode runs = root.putArray("runs");
		c.runs().forEach(run -> runs.addObject().put("name", run.name()).put("dir", run.dir().toString()));
		root.set("manifestDifferences", json.valueToTree(differences));
		ArrayNode between = root.putArray("betweenRuns");
		for (BetweenRuns b : betweenRuns) {
			ObjectNode one = between.addObject().put("entry", b.entry()).put("baseline", b.baseline());
			one.set("runs", json.valueToTree(b.runs()));
			one.set("ratios", json.valueToTree(b.perRun()));
			one.put("ratio", b.interval().estimate()).put("low", b.interval().low()).put("high", b.interval().high()).put("spreadPercent", b.spreadPercent())
				.put("agreementPercent", BetweenRuns.AGREE_PERCENT).put("agrees", b.agrees(BetweenRuns.AGREE_PERCENT));
			one.set("ownIntervals", json.valueToTree(b.ownIntervals().stream().map(i -> List.of(i.low(), i.high())).toList()));
			one.set("ownIntervalMisses", json.valueToTree(b.misses()));
			// Two runs judged by the interval of their difference: what "reproduced" rests on.
			one.put("pairsJudged", b.pairs().size()).put("pairsConsistent", b.pairs().stream().filter(BetweenRuns.Pair::consistent).count())
				.put("reproduced", b.reproduced());
			// How far one run's ratio lies from the runs' mean, and the narrowest 95% half-width that spread allows a run's own interval.
			BetweenRuns.Spread spread = b.between();
			if (spread != null) {
				one.put("betweenSd", spread.sd()).put("betweenSdLow", spread.sdLow()).put("betweenSdHigh", spread.sdHigh())
					.put("narrowestHalfWidthPercent", spread.narrowestHalfWidthPercent(spread.sd()));
			}
			one.set("ownHalfWidthPercents", json.valueToTree(b.ownIntervals().stream().map(i -> i.hasSpread() ? i.halfWidthPercent() : null).toList()));
		}
		ArrayNode pairs = root.putArray("betweenRunsPairs");
		for (BetweenRuns b : pairRuns) {
			ObjectNode one = pairs.addObject().put("entry", b.entry()).put("relativeTo", b.baseline());
			one.set("ratios", json.valueToTree(b.perRun()));
			one.put("ratio", b.interval().estimate()).put("spreadPercent", b.spreadPercent())
				.put("agreementPercent", BetweenRuns.AGREE_PERCENT).put("agrees", b.agrees(BetweenRuns.AGREE_PERCENT));
		}
		ArrayNode rows = root.putArray("rows");
		for (Comparison.Row row : c.rows()) {
			ObjectNode r = rows.addObject().put("variant", row.variant()).put("load", row.load());
			ArrayNode perRun = r.putArray("runs");
			for (int i = 0; i < c.runs().size(); i++) {
				LevelResult level = row.levels().get(i);
				Comparison.Change change = row.changes().get(i);
				ObjectNode one = perRun.addObject().put("run", c.runs().get(i).name());
				if (level != null) {
					figures.forEach(f -> one.put(f.field(), level.value(f)));
					one.put("verdict", level.verdict().name());
					if (!level.byRequest().isEmpty()) {
						one.set("byRequest", json.valueToTree(level.byRequest()));
					}
				}
				if (c.hasBaseline() && i != c.baseline()) {
					changed.forEach(f -> one.put(f.compared().change() + "ChangePercent", change.percent(f)));
					one.put("boundPercent", change.bound());
					changed.forEach(f -> one.put(f.compared().change() + "BeyondNoise", change.beyond(change.percent(f))));
					one.put("note", change.note());
				}
			}
		}
		return root;
	}

}
