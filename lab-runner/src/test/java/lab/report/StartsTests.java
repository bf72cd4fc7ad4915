package lab.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import lab.analyse.RunAnalysis;
import lab.analyse.TestRows;
import lab.analyse.judge.Figures;
import lab.analyse.judge.LevelResult;
import lab.analyse.judge.Thresholds;
import lab.analyse.profile.LevelSeries;
import lab.analyse.profile.StartProfile;
import lab.analyse.read.LevelFacts;
import lab.analyse.read.Samples;
import lab.json.Json;
import lab.layout.Level;
import lab.layout.LevelDir;
import lab.load.LoadWindow;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** The report's start section and a start level's timeline, drawn from the process start. */
class StartsTests {

	static final long STARTED = 1_795_000_000_000L;

	@TempDir
	Path dir;

	/** One start of {@code variant}: ready at {@code ready} s, answers from second 5 ramping to 600 a second. */
	private LevelSeries start(String variant, String repeat, double ready) throws Exception {
		Path level = Files.createDirectories(this.dir.resolve(variant).resolve(repeat).resolve("users-300"));
		TreeMap<Long, Long> answered = new TreeMap<>();
		for (int second = 5; second < 95; second++) {
			answered.put(STARTED + (second + 1) * 1000L + 215, (second < 8) ? 100L * (second - 4) : 600L);
		}
		Files.writeString(level.resolve(LevelDir.METRICS), "epoch_ms,source,series,value\n" + (STARTED + 5_000) + ",service,jit_cpu_seconds,2.5\n"
				+ (STARTED + 10_000) + ",service,jit_cpu_seconds,4.0\n" + (STARTED + 60_000) + ",service,jit_cpu_seconds,6.0\n");
		Samples samples = Samples.read(level.resolve(LevelDir.METRICS));
		Histogram sent = new Histogram(3_600_000_000L, 3);
		sent.recordValue(700_000);
		LoadWindow window = new LoadWindow(STARTED + 4_500, STARTED + 4_500, STARTED + 95_000);
		StartProfile profile = StartProfile.of(variant, level, STARTED, STARTED + (long) (ready * 1000), answered, window, List.of(sent, sent, sent),
				samples.series("service", "jit_cpu_seconds"));
		LevelFacts facts = new LevelFacts(variant, new Level.Closed(300), null, 500, 1, false, 1, 1, true, null, false, 0, List.of(), List.of(), null,
				30_000L, true, true, null, null, null, true);
		return new LevelSeries(level, facts, window, new TreeMap<>(), answered, new TreeMap<>(), samples, false, false, profile);
	}

	@Test
	void theReportShowsEachVariantsStartsAsRangesWithTheirCharts() throws Exception {
		List<LevelSeries> series = List.of(start("app-webflux", "repeat-1", 4.2), start("app-webflux", "repeat-2", 5.1),
				start("app-tomcat-loom", "repeat-1", 6.0));
		List<LevelResult> levels = List.of(TestRows.row("app-webflux", new Level.Closed(300)).set(Figures.RPS, 590).repeats(2).build(),
				TestRows.row("app-tomcat-loom", new Level.Closed(300)).set(Figures.RPS, 585).build());
		Starts starts = Starts.of(series);
		assertThat(starts.rows()).hasSize(2);
		Map<String, String> webflux = starts.rows().get(0);
		assertThat(webflux).containsEntry("variant", "app-webflux").containsEntry("starts", "2").containsEntry("ready", "4.2–5.1").containsEntry("load", "4.5")
			.containsEntry("firstAnswer", "6").containsEntry("steadyRps", "600").containsEntry("jit10", "4.0").containsEntry("answered10", "1,800");
		RunAnalysis analysis = new RunAnalysis(this.dir, Json.MAPPER.createObjectNode(), Thresholds.DEFAULT, null, levels, List.of(), series, Map.of());
		new ReportWriter().write(analysis);
		String html = Files.readString(this.dir.resolve("report.html"));
		assertThat(html).contains("<h2 id=\"starts\">Time to full speed</h2>").contains("<td class=\"l\">app-webflux</td><td>2</td><td>4.2–5.1</td><td>4.5</td>")
			.contains("alt=\"Answers per second from process start\"").contains("alt=\"JIT compiler threads&#39; CPU from process start\"");
		assertThat(Files.readString(this.dir.resolve("summary.md"))).contains("## Time to full speed").contains("| app-tomcat-loom | 1 | 6.0 | 4.5 |");
	}

	@Test
	void aStartLevelsTimelineIsDrawnFromItsProcessStartWithTheJit() throws Exception {
		LevelSeries level = start("app-webflux", "repeat-1", 4.2);
		assertThat(Timeline.write(level, "app-webflux, 300 users", "../../report.html")).isTrue();
		String timeline = Files.readString(level.dir().resolve(LevelDir.TIMELINE));
		assertThat(timeline).contains("Seconds from the service's process start: a cold start")
			.contains("ready after 4.2 s, first answer by 6 s, 90% of its steady 600 rps by 9 s").contains("alt=\"JIT compiler threads&#39; CPU\"");
	}

}
