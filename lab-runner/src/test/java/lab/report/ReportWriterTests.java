package lab.report;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;

import lab.analyse.Analyser;
import lab.analyse.Comparison;
import lab.analyse.GoldenFixtures;
import lab.analyse.Manifest;
import lab.analyse.judge.LevelResult;
import lab.analyse.judge.Rule;
import lab.analyse.judge.Thresholds;
import lab.layout.Level;
import lab.plan.Variant;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class ReportWriterTests {

	@TempDir
	Path results;

	Path render() throws Exception {
		GoldenFixtures.write(this.results);
		return new ReportWriter().write(new Analyser(Thresholds.DEFAULT).run(this.results, Manifest.readTree(this.results), null));
	}

	@Test
	void theHtmlHasEverySectionAndNeedsNoNetwork() throws Exception {
		String html = Files.readString(render());
		for (String section : List.of("id=\"verdicts\"", "id=\"table\"", "id=\"charts\"", "id=\"reasons\"", "id=\"thresholds\"",
				"id=\"gatling\"", "id=\"manifest\"", "id=\"how-to-read\"")) {
			assertThat(html).as(section).contains(section);
		}
		assertThat(html).contains("<img alt=\"Throughput\" src=\"data:image/png;base64,")
			.contains("<img alt=\"p99 latency, all requests\"").contains("<img alt=\"Peak RSS\"")
			.contains("<img alt=\"Peak virtual threads mounted or queued\"");
		assertThat(html).contains(">FAILED<").contains(">INVALID<").contains(">OK<")
			.contains("downstream p99 90 ms late: at most 10% of the service&#39;s p99 (900 ms)")
			.contains("stalled 3 s at +4 s")
			.contains("<a href=\"app-tomcat-loom/service.log\">");
		// Offline: nothing is loaded from anywhere else.
		assertThat(html).doesNotContain("http://").doesNotContain("https://").doesNotContain("<script");
	}

	@Test
	void everyLevelThatRanLinksItsTimeline() throws Exception {
		String html = Files.readString(render());
		assertThat(html).contains("<a href=\"app-webflux/users-100/timeline.html\"");
		String timeline = Files.readString(this.results.resolve("app-webflux/users-100/timeline.html"));
		assertThat(timeline).contains("app-webflux, 100 users").contains("<img alt=\"Requests per second\" src=\"data:image/png;base64,")
			.contains("<img alt=\"Latency of successes, by send second\"").contains("<img alt=\"Service CPU\"")
			.contains("<a href=\"../../report.html\">").doesNotContain("http://").doesNotContain("<script");
	}

	@Test
	void aReRenderJudgesByTheThresholdsTheRunRecordedUnlessRejudged() throws Exception {
		GoldenFixtures.write(this.results);
		// The run recorded an error threshold of 1%: app-webflux at 100 users (1.2% errors) FAILED by it, OK by today's 5%.
		Path manifest = this.results.resolve("manifest.json");
		Files.writeString(manifest, Files.readString(manifest).replace("\"profile\"", "\"thresholds\":{\"injectorBusyPercent\":90,"
				+ "\"downstreamOverheadMs\":50,\"downstreamOverheadPercent\":10,\"errorPercent\":1,\"stallDelays\":2,\"stallMinSeconds\":2,"
				+ "\"notWarmRatio\":1.5,\"efficiencyFloorPercent\":50,\"rpsDropPercent\":20,\"repeatSpreadPercent\":10},\"profile\""));
		Thresholds recorded = Manifest.read(this.results).thresholds();
		assertThat(recorded.get(Rule.ERRORS)).isEqualTo(1);
		// A run older than the JIT-based warmth rules keeps what it recorded and takes today's default for the rest.
		assertThat(recorded.get(Rule.NOT_WARM_JIT)).isEqualTo(Thresholds.DEFAULT.get(Rule.NOT_WARM_JIT));
		// (Rules added after these follow in declaration order: a new rule does not touch this test.)
		assertThat(Thresholds.defaultedIn(Manifest.readTree(this.results))).startsWith("harnessEffectPercent 10", "notWarmJitPercent 10",
				"notWarmHalvesPercent 25", "secondHalfSlowerPercent 15", "pinnedCarrierPercent 1");
		LevelResult byRecorded = new Analyser(recorded).analyse(this.results, Variant.names()).stream()
			.filter(r -> r.variant().equals("app-webflux") && r.level().equals(new Level.Closed(100))).findFirst().orElseThrow();
		assertThat(byRecorded.verdict()).isEqualTo(LevelResult.Verdict.FAILED);
		new ReportWriter().write(new Analyser(Thresholds.DEFAULT).run(this.results, Manifest.readTree(this.results),
				"Re-judged with the lab's current thresholds."));
		assertThat(Files.readString(this.results.resolve("report.html"))).contains("Re-judged with the lab&#39;s current thresholds.");
		assertThat(Thresholds.recordedIn(new tools.jackson.databind.json.JsonMapper().readTree("{}"))).isEqualTo(Thresholds.DEFAULT);
		assertThat(Manifest.read(this.results.resolve("no-such-run")).thresholds()).isEqualTo(Thresholds.DEFAULT);
	}

	@Test
	void summaryJsonAndMarkdownCarryEveryRow() throws Exception {
		render();
		String json = Files.readString(this.results.resolve("summary.json"));
		assertThat(json).contains("\"schema\" : \"loom-lab/summary/2\"").contains("\"verdict\" : \"INVALID\"").contains("\"rps\" : 190.0");
		String markdown = Files.readString(this.results.resolve("summary.md"));
		assertThat(markdown).contains("| app-webflux | 100 | 190 | 95% | 510 / 900 | 900 | 1.20 | 0 | 50 | 2.60 |")
			.contains("| 30,015 | - / - / - | - / - | - / - | 1,923 | 0 / 20 / 1 / 0 / 0 / 2 |")
			// A FAILED level leads with its cause; what followed from it is listed under it.
			.contains("- app-tomcat-loom at 100: FAILED OutOfMemoryError in the service log\n  - the service died (exit code 137)\n");
		String html = Files.readString(this.results.resolve("report.html"));
		assertThat(html).contains("FAILED</td><td class=\"l\">OutOfMemoryError in the service log<details><summary>")
			.contains("<li>the service died (exit code 137)</li>");
	}

	@Test
	void reRenderingGivesTheSameFilesApartFromTheRenderTime() throws Exception {
		render();
		String first = Files.readString(this.results.resolve("report.html"));
		String firstJson = Files.readString(this.results.resolve("summary.json"));
		render();
		assertThat(withoutRenderTime(Files.readString(this.results.resolve("report.html")))).isEqualTo(withoutRenderTime(first));
		assertThat(Files.readString(this.results.resolve("summary.json"))).isEqualTo(firstJson);
	}

	/**
	 * The analysis reads the results directory; rendering reads nothing: with every level's raw files gone after the
	 * analysis, the report, the summary and the timelines come out as they do with the files in place.
	 */
	@Test
	void renderingReadsNothingTheAnalysisDidNotRead() throws Exception {
		render();
		String json = Files.readString(this.results.resolve("summary.json"));
		String html = withoutRenderTime(Files.readString(this.results.resolve("report.html")));
		String timeline = Files.readString(this.results.resolve("app-webflux/users-100/timeline.html"));
		var analysis = new Analyser(Thresholds.DEFAULT).run(this.results, Manifest.readTree(this.results), null);
		List<Path> raw;
		try (var files = Files.walk(this.results)) {
			raw = files.filter(Files::isRegularFile).filter(file -> !file.getFileName().toString().matches("report\\.html|summary\\..*|timeline\\.html"))
				.toList();
		}
		assertThat(raw).as("raw files of the fixture").hasSizeGreaterThan(10);
		for (Path file : raw) {
			Files.delete(file);
		}
		new ReportWriter().write(analysis);
		assertThat(Files.readString(this.results.resolve("summary.json"))).isEqualTo(json);
		assertThat(withoutRenderTime(Files.readString(this.results.resolve("report.html")))).isEqualTo(html);
		assertThat(Files.readString(this.results.resolve("app-webflux/users-100/timeline.html"))).isEqualTo(timeline);
	}

	static String withoutRenderTime(String html) {
		return html.replaceAll("Rendered [0-9TZ:.\\-]+", "Rendered <time>");
	}

	/** The page as a person sees it: headless Chromium renders it offline, and the picture is not blank. */
	@Test
	void chromiumRendersTheReport() throws Exception {
		Path chromium = chromium();
		Path html = render();
		Path png = this.results.resolve("screenshot.png");
		run(chromium, "--window-size=1300,2400", "--screenshot=" + png, html.toUri().toString());
		assertThat(png).exists();
		BufferedImage image = ImageIO.read(png.toFile());
		assertThat(distinctColours(image)).as("colours in the screenshot").isGreaterThan(50);
		copyForReadme(png);
	}

	@Test
	void theReportTheComparisonAndATimelineFitA1280PixelWindowAndAreNotBlank() throws Exception {
		Path chromium = chromium();
		Path report = render();
		Path other = GoldenFixtures.write(Files.createDirectories(this.results.resolve("other")));
		var runs = new java.util.ArrayList<Comparison.Run>();
		for (Path dir : List.of(this.results, other)) {
			runs.add(new Comparison.Run(dir.getFileName().toString(), dir, Manifest.read(dir),
					new Analyser(Thresholds.DEFAULT).analyse(dir, Variant.names())));
		}
		Path compare = new CompareWriter().write(Comparison.of(runs, 0, 10), this.results.resolve("compare"));
		Path timeline = this.results.resolve("app-webflux/users-100/timeline.html");
		for (Path page : List.of(report, compare, timeline)) {
			// A copy that reports its own layout in its title: how wide the page is against the window.
			Path probe = page.resolveSibling("probe-" + page.getFileName());
			Files.writeString(probe, Files.readString(page).replace("</body>",
					"<script>document.title = 'width ' + document.documentElement.scrollWidth + ' of ' + window.innerWidth;</script></body>"));
			String dom = run(chromium, "--window-size=1280,900", "--dump-dom", probe.toUri().toString());
			java.util.regex.Matcher width = java.util.regex.Pattern.compile("<title>width (\\d+) of (\\d+)</title>").matcher(dom);
			assertThat(width.find()).as(page + " reported its width").isTrue();
			assertThat(Integer.parseInt(width.group(1))).as(page + ": page width in a 1,280 px window (no sideways scrolling)")
				.isLessThanOrEqualTo(Integer.parseInt(width.group(2)));
			Path png = page.resolveSibling(page.getFileName() + ".png");
			run(chromium, "--window-size=1280,1600", "--screenshot=" + png, page.toUri().toString());
			assertThat(distinctColours(ImageIO.read(png.toFile()))).as(page + ": colours in its screenshot").isGreaterThan(50);
		}
	}

	/** Chromium's path; the test is skipped, saying why, where it is not installed. */
	private static Path chromium() {
		Path chromium = Path.of("/usr/bin/chromium");
		Assumptions.assumeTrue(Files.isExecutable(chromium),
				"SKIPPED: Chromium is not installed (apt-get install chromium; .ci/run installs it)");
		return chromium;
	}

	/** Headless Chromium with a profile of its own; returns what it printed on stdout. */
	private String run(Path chromium, String... args) throws Exception {
		// Inside the test's own directory, which JUnit deletes: each profile is about 2 MB.
		Path profile = Files.createTempDirectory(this.results, "chromium-profile");
		List<String> command = new java.util.ArrayList<>(List.of(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
				"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
				"--user-data-dir=" + profile));
		command.addAll(List.of(args));
		Path stdout = Files.createTempFile(this.results, "chromium", ".out");
		Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).redirectOutput(stdout.toFile()).start();
		try {
			assertThat(process.waitFor(90, TimeUnit.SECONDS)).as("Chromium finished").isTrue();
		}
		finally {
			process.destroyForcibly();
		}
		return Files.readString(stdout);
	}

	private static long distinctColours(BufferedImage image) {
		java.util.Set<Integer> colours = new java.util.HashSet<>();
		for (int y = 0; y < image.getHeight(); y += 3) {
			for (int x = 0; x < image.getWidth(); x += 3) {
				colours.add(image.getRGB(x, y));
			}
		}
		return colours.size();
	}

	private static void copyForReadme(Path png) throws IOException {
		Path target = Path.of(System.getProperty("lab.root", ".")).resolve("lab-runner/target/report-screenshot.png");
		Files.createDirectories(target.getParent());
		Files.copy(png, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
	}

}
