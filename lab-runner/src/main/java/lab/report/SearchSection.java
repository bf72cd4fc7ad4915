package lab.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import lab.analyse.search.Interval;
import lab.analyse.search.Round;
import lab.analyse.search.SearchRecord;
import lab.analyse.search.SearchSummary;

/**
 * The report's section of an interleaved capacity search: per arm, each variant's capacity as a crossing with its
 * interval, its ratio to the baseline within rounds (with "≈ ... cannot be told apart" where its interval holds 1), the
 * A/A twin's ratio as the run's noise floor, the pairs the run could not tell apart, and every round with its reference
 * and steal time. Built from the analysis's search files alone.
 */
final class SearchSection {

	private SearchSection() {
	}

	/** The summary holding an entry (a row's variant label), or null. */
	static SearchSummary.EntryResult entry(List<SearchSummary> summaries, String variant) {
		return summaries.stream().map(s -> s.entry(variant)).filter(e -> e != null).findFirst().orElse(null);
	}

	/** The entry's ratio to its baseline, or null (the baseline itself, or no search). */
	static SearchSummary.Ratio ratio(List<SearchSummary> summaries, String variant) {
		return summaries.stream().flatMap(s -> s.ratios().stream()).filter(r -> r.entry().equals(variant)).findFirst().orElse(null);
	}

	/**
	 * A searched variant in words, for a verdict line, a capacity map's cell and a compare row: "2,310 (2,200-2,420, 3
	 * rounds); 0.62 (0.58-0.66, 3 rounds) × app-webflux" or "...; the baseline"; null when no search placed it.
	 */
	static String cell(List<SearchSummary> summaries, String variant) {
		SearchSummary.EntryResult entry = entry(summaries, variant);
		if (entry == null || entry.capacity().n() == 0) {
			return null;
		}
		SearchSummary.Ratio ratio = ratio(summaries, variant);
		return entry.capacity().asLoad() + ((ratio == null) ? "; the baseline" : "; " + ratio.describe() + " × " + ratio.baseline());
	}

	/** The templates' scope: one block per search. */
	static List<Map<String, Object>> scope(List<SearchSummary> summaries, String loadUnit) {
		List<Map<String, Object>> blocks = new ArrayList<>();
		for (SearchSummary summary : summaries) {
			SearchRecord record = summary.record();
			Map<String, Object> block = new LinkedHashMap<>();
			block.put("group", record.group());
			block.put("baseline", record.baseline());
			long counted = record.rounds().stream().filter(Round::counted).count();
			double[] references = record.rounds().stream().filter(Round::counted).flatMap(r -> java.util.stream.Stream.of(r.referenceBeforeMs(),
					r.referenceAfterMs())).filter(java.util.Objects::nonNull).mapToDouble(Double::doubleValue).sorted().toArray();
			String reference = (references.length == 0) ? "" : String.format(Locale.ROOT, "; the CPU reference on the service's core %.1f ms (median): "
					+ "a knee bound by the core moves with it on another machine, one bound by the heap or a pool does not", references[references.length / 2]);
			String minutes = (record.costs() == null || record.costs().describe() == null) ? "" : "; " + record.costs().describe();
			block.put("rounds", String.format(Locale.ROOT, "%d rounds in all (%d bracketing, %d refining; %d counted, %d marked for a moved CPU reference)%s%s",
					record.rounds().size(), record.rounds().stream().filter(r -> r.kind() == Round.Kind.BRACKET).count(),
					record.rounds().stream().filter(r -> r.kind() == Round.Kind.REFINE).count(), counted, record.rounds().stream().filter(Round::moved).count(),
					reference, minutes));
			List<Map<String, String>> rows = new ArrayList<>();
			for (SearchSummary.EntryResult entry : summary.entries()) {
				SearchSummary.Ratio ratio = summary.ratios().stream().filter(r -> r.entry().equals(entry.entry())).findFirst().orElse(null);
				rows.add(Map.of("variant", entry.entry(), "capacity", entry.describe(loadUnit), "ratio",
						entry.entry().equals(record.baseline()) ? "1 (the baseline)" : (ratio == null) ? "-" : ratio.describe(),
						"perRound", (ratio == null) ? "" : String.join(", ", ratio.perRound().stream().map(v -> Interval.figure(v, false)).toList()),
						"limit", entry.limit().isEmpty() ? "-" : entry.limit()));
			}
			block.put("entries", rows);
			SearchSummary.Ratio floor = summary.noiseFloor();
			block.put("noiseFloor", (floor == null) ? null : "A/A: " + floor.entry() + " (the baseline entered again) / " + floor.baseline() + " = "
					+ floor.describe() + ": differences within this are this run's noise");
			block.put("precision", SearchPrecision.of(summary));
			Charts.Chart forest = ForestPlot.withEarlier(summary);
			block.put("forest", (forest == null) ? null : forest.dataUri());
			List<String> apart = summary.pairs().stream().filter(p -> p.interval().n() > 0 && p.unresolved())
				.map(p -> p.entry() + " ≈ " + p.baseline() + " (" + p.interval().asRatio() + ")").toList();
			long unplaced = summary.pairs().stream().filter(p -> p.interval().n() == 0).count();
			block.put("unresolved", (apart.isEmpty() ? "none" : String.join("; ", apart))
					+ ((unplaced > 0) ? " (" + unplaced + " pair(s) not compared: no refining round placed both)" : ""));
			block.put("roundRows", record.rounds().stream().map(r -> Map.of("index", Integer.toString(r.index()), "kind", r.kind().name().toLowerCase(Locale.ROOT)
					+ ((r.rerunOf() != null) ? " (again: " + r.rerunOf() + ")" : ""), "order", String.join(", ", r.order()), "reference",
					ms(r.referenceBeforeMs()) + " / " + ms(r.referenceAfterMs()), "steal", (r.stealPercent() == null) ? "-" : String.format(Locale.ROOT, "%.2f%%",
							r.stealPercent()), "moved", r.moved() ? "marked, not used" : "")).toList());
			blocks.add(block);
		}
		return blocks;
	}

	private static String ms(Double value) {
		return (value == null) ? "-" : String.format(Locale.ROOT, "%.1f ms", value);
	}

}
