package lab.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import lab.analyse.RunAnalysis;
import lab.analyse.profile.LevelSeries;
import lab.analyse.read.LevelFacts;
import lab.layout.Level;
import lab.layout.LevelDir;
import lab.layout.RunDir;

/** Every level's {@code timeline.html} ({@link Timeline}), second by second; a level without a window has none. */
final class Timelines implements ReportFormat {

	@Override
	public void write(RunAnalysis analysis, Map<String, Object> scope) throws IOException {
		Path results = analysis.results();
		for (LevelSeries level : analysis.series()) {
			LevelFacts facts = level.facts();
			String title = facts.variant() + ", " + switch (facts.level()) {
				case Level.Closed closed -> String.format(Locale.ROOT, "%,d users", closed.users());
				case Level.Open open -> String.format(Locale.ROOT, "%,d requests/s offered", open.ratePerSecond());
			} + " (" + results.relativize(level.dir()) + ")";
			Timeline.write(level, title, level.dir().relativize(results.resolve(RunDir.REPORT)).toString());
		}
	}

	/**
	 * Per variant label and load, the path of its first timeline relative to the results directory (a level with
	 * repeats links its first run's); a level without a window ({@link Timeline#write} draws none) has no link.
	 */
	static Map<String, String> links(Path results, List<LevelSeries> series) {
		Map<String, String> links = new LinkedHashMap<>();
		for (LevelSeries level : series) {
			if (level.window() != null) {
				links.putIfAbsent(level.facts().variant() + "/" + level.facts().load(), results.relativize(level.dir().resolve(LevelDir.TIMELINE)).toString());
			}
		}
		return links;
	}

}
