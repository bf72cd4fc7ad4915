package lab.analyse;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import lab.analyse.judge.LevelResult;
import lab.analyse.judge.Thresholds;
import lab.analyse.profile.LevelSeries;
import lab.analyse.profile.MemoryProfile;
import lab.analyse.search.SearchSummary;
import lab.analyse.search.TuneSummary;
import lab.plan.Variants;
import tools.jackson.databind.JsonNode;

/**
 * One results directory analysed: what the report renders, and all of it ({@link Analyser#run}). Each level's files
 * are read once into its figures and its series; the report reads nothing more.
 *
 * @param results the results directory
 * @param manifest its {@code manifest.json} as written (the summary embeds it)
 * @param thresholds the thresholds the levels were judged by
 * @param rejudged why they are not the ones the run recorded (the report says so), else null
 * @param levels every variant and level, judged, repeats combined, in report order
 * @param memory every variant's memory profile
 * @param series every level directory's timeline series, in path order
 * @param clients each service's downstream client as it read it back: where it was kept → in words
 * @param searches each interleaved capacity search ({@link lab.layout.RunDir#CAPACITY_SEARCH}), read and summarised, in file-name
 * order
 * @param variants the variants the run knew: the lab's, and the arms of a service of the user's own it measured
 * @param tune a tune run's answer ({@code --scenario tune}), else null
 */
public record RunAnalysis(Path results, JsonNode manifest, Thresholds thresholds, String rejudged, List<LevelResult> levels,
		List<MemoryProfile> memory, List<LevelSeries> series, Map<String, String> clients, List<SearchSummary> searches, Variants variants,
		TuneSummary tune) {

	/** A run of the lab's variants without a search. */
	public RunAnalysis(Path results, JsonNode manifest, Thresholds thresholds, String rejudged, List<LevelResult> levels, List<MemoryProfile> memory,
			List<LevelSeries> series, Map<String, String> clients) {
		this(results, manifest, thresholds, rejudged, levels, memory, series, clients, List.of(), Variants.LAB, null);
	}

}
