package lab.analyse.search;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import lab.json.Json;
import lab.layout.LatencyTarget;
import lab.layout.RunDir;

/**
 * An interleaved search as its {@link lab.layout.RunDir#CAPACITY_SEARCH} keeps it, rewritten after every probe: what ran (rounds, probes, brackets)
 * and what it was asked (entries, baseline, A/A twin, settings). Everything the report says of the search follows from
 * it ({@link SearchSummary#of}), so a report can be re-rendered from it alone.
 *
 * @param group the arm the search compared its variants under ("default", "work100", ...)
 * @param target the latency target, written as declared ("p99<=1000ms,errors<=0.1%"); the settings' own
 * @param baseline the entry every ratio is to
 * @param twin the A/A twin of the baseline (the same variant entered under a second name), null when none
 * @param entries every entry, in the run's order
 * @param settings how it searched
 * @param rounds every round, re-runs included
 * @param probes every probe, in the order they ran
 * @param brackets each entry's bracket (null: not finished)
 * @param ended entries whose search ended early, and why
 * @param costs what a start and a probe took in this run (null in older records)
 */
public record SearchRecord(String group, LatencyTarget target, String baseline, String twin, List<String> entries, SearchSettings settings,
		List<Round> rounds, List<RoundProbe> probes, Map<String, BracketFound> brackets, Map<String, String> ended, SearchCosts costs) {

	public SearchRecord {
		// A record older than the settings' target kept only its bound there: its target is the one named here.
		if (settings != null && settings.target() == null) {
			settings = settings.withTarget(target);
		}
		target = (settings != null) ? settings.target() : target;
	}

	/** Its file in {@code results} ({@link lab.layout.RunDir#capacitySearch}). */
	public static Path file(Path results, String group) {
		return results.resolve(RunDir.capacitySearch(group));
	}

	public void write(Path results) throws IOException {
		Path file = file(results, this.group);
		Path partial = file.resolveSibling(file.getFileName() + ".partial");
		Json.MAPPER.writeValue(partial.toFile(), this);
		Files.move(partial, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
	}

	/** The same record, each probe's limit replaced by {@code limits}' for its level (none there: as recorded). */
	public SearchRecord withLimits(Map<String, String> limits) {
		List<RoundProbe> replaced = this.probes.stream()
			.map(p -> (p.level() != null && limits.containsKey(p.level())) ? p.withLimit(limits.get(p.level())) : p).toList();
		return new SearchRecord(this.group, this.target, this.baseline, this.twin, this.entries, this.settings, this.rounds, replaced, this.brackets,
				this.ended, this.costs);
	}

	/** A search as its file was read (the analysis reads every search of a run). */
	public static SearchRecord of(tools.jackson.databind.JsonNode node) {
		return Json.MAPPER.treeToValue(node, SearchRecord.class);
	}

}
