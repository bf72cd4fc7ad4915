package lab.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import lab.analyse.Analyser;
import lab.analyse.Comparison;
import lab.analyse.GoldenFixtures;
import lab.analyse.Manifest;
import lab.analyse.TestRows;
import lab.analyse.judge.Figures;
import lab.analyse.judge.LevelResult;
import lab.layout.Level;
import lab.plan.Variant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Runs side by side on the golden fixture: a copy with one change, and what the comparison makes of it. */
class CompareTests {

	@TempDir
	Path dir;

	private Comparison.Run run(Path results) throws Exception {
		var manifest = Manifest.read(results);
		return new Comparison.Run(results.getFileName().toString(), results, manifest,
				new Analyser(manifest.thresholds()).analyse(results, Variant.names()), List.of(), null, Analyser.clients(results));
	}

	@Test
	void aRunAgainstItselfChangesNothingAndItsManifestsDoNotDiffer() throws Exception {
		Path a = GoldenFixtures.write(Files.createDirectories(this.dir.resolve("a")));
		Path b = GoldenFixtures.write(Files.createDirectories(this.dir.resolve("b")));
		Comparison c = Comparison.of(List.of(run(a), run(b)), 0, 10);
		assertThat(CompareWriter.differences(c.runs())).isEmpty();
		Comparison.Row ok = c.rows().stream().filter(r -> r.variant().equals("app-webflux") && r.load() == 100).findFirst().orElseThrow();
		Comparison.Change change = ok.changes().get(1);
		assertThat(change.percent(Figures.RPS)).isZero();
		assertThat(change.percent(Figures.P99_ALL_MS)).isZero();
		assertThat(change.beyond(change.percent(Figures.RPS))).isFalse();
		assertThat(ok.changes().get(0).note()).as("the baseline has no change against itself").isEmpty();
	}

	@Test
	void aChangeIsBeyondNoiseOnlyAboveTheBoundAndOnlyBetweenOkLevels() throws Exception {
		Path a = GoldenFixtures.write(Files.createDirectories(this.dir.resolve("a")));
		Path b = GoldenFixtures.write(Files.createDirectories(this.dir.resolve("b")));
		// b: another commit, and app-webflux at 100 users answers every request with a 5xx (FAILED).
		Files.writeString(b.resolve("manifest.json"), Files.readString(b.resolve("manifest.json")).replace("\"profile\"", "\"gitCommit\":\"abc\",\"profile\""));
		Path level = b.resolve("app-webflux/users-100");
		Files.writeString(level.resolve("requests.csv"), Files.readString(level.resolve("requests.csv")).replace(",190,0,2,", ",0,0,192,"));
		Comparison c = Comparison.of(List.of(run(a), run(b)), 0, 10);
		assertThat(CompareWriter.differences(c.runs())).singleElement().satisfies(d -> {
			assertThat(d.key()).isEqualTo("git commit");
			assertThat(d.values()).containsExactly("unknown", "abc");
		});
		Comparison.Row row = c.rows().stream().filter(r -> r.variant().equals("app-webflux") && r.load() == 100).findFirst().orElseThrow();
		assertThat(row.changes().get(1).note()).isEqualTo("verdict OK → FAILED");
		assertThat(row.changes().get(1).percent(Figures.RPS)).isNaN();
	}

	@Test
	void repeatedCapacityRunsSayWhetherEachRatioReproducesWithinFivePercent() throws Exception {
		Path a = GoldenFixtures.write(Files.createDirectories(this.dir.resolve("a")));
		Path b = GoldenFixtures.write(Files.createDirectories(this.dir.resolve("b")));
		Path c3 = GoldenFixtures.write(Files.createDirectories(this.dir.resolve("c")));
		// Tomcat + virtual threads at 0.34, 0.42, 0.37 of WebFlux in three runs (each run's rounds agreeing closely); the
		// platform pool at 0.13, 0.128, 0.13.
		double[][] tomcat = { { 0.34, 0.34 }, { 0.42, 0.42 }, { 0.37, 0.37 } };
		double[][] platform = { { 0.13, 0.13 }, { 0.128, 0.128 }, { 0.13, 0.13 } };
		List<Comparison.Run> runs = new java.util.ArrayList<>();
		Path[] dirs = { a, b, c3 };
		for (int i = 0; i < 3; i++) {
			Comparison.Run plain = run(dirs[i]);
			runs.add(new Comparison.Run(plain.name(), plain.dir(), plain.manifest(), plain.levels(),
					List.of(lab.analyse.search.BetweenRunsTests.run(lab.analyse.search.BetweenRunsTests.ratio("app-tomcat-loom", "app-webflux", tomcat[i]),
							lab.analyse.search.BetweenRunsTests.ratio("app-tomcat-platform", "app-webflux", platform[i]))), null, plain.clients()));
		}
		Path out = this.dir.resolve("compare");
		new CompareWriter().write(Comparison.of(runs, 0, 10), out);
		String md = Files.readString(out.resolve("compare.md"));
		assertThat(md).contains("### Do the runs reproduce each ratio?")
			.containsPattern("\\| app-tomcat-loom \\| app-webflux \\| 0\\.340, 0\\.420, 0\\.370 \\| 0\\.375 over 3 runs \\(0\\.340-0\\.420 between them, 95% interval [0-9.]+-[0-9.]+\\): the runs lie within ±1[0-9]%, not within ±5%; no pair of runs with intervals of their own to judge by their difference; the runs spread "
					+ "±[0-9.]+% \\(SD of a run's log ratio; 95%: [0-9.]+-[0-9.]+%\\): one run's 95% interval holds the long-run ratio 95% of the time only from "
					+ "±[0-9]+% \\(±[0-9]+-[0-9]+%\\) \\|")
			.contains("| app-tomcat-platform | app-webflux | 0.130, 0.128, 0.130 | 0.129 over 3 runs").contains("they agree within ±5%");
		assertThat(Files.readString(out.resolve("compare.html"))).contains("Do the runs reproduce each ratio?").contains("data:image/png;base64,");
		// The runs' ratios as a picture beside the page, for a document: a PNG the markdown links.
		byte[] png = Files.readAllBytes(out.resolve("forest.png"));
		assertThat(java.util.Arrays.copyOf(png, 4)).containsExactly(0x89, 'P', 'N', 'G');
		assertThat(md).contains("](forest.png)");
		var json = tools.jackson.databind.json.JsonMapper.builder().build().readTree(out.resolve("compare.json").toFile());
		assertThat(json.path("betweenRuns")).hasSize(2);
		assertThat(json.path("betweenRuns").get(0).path("agrees").asBoolean()).isFalse();
		assertThat(json.path("betweenRuns").get(1).path("agrees").asBoolean()).isTrue();
		assertThat(json.path("betweenRuns").get(0).path("runs")).hasSize(3);
	}

	@Test
	void theBoundIsTheLargerOfTheNoiseAndTheRepeatsSpread() {
		// Baseline 100 rps (repeats 90-110: spread 20%), other 115 rps (single run): +15% is within the 20% spread.
		LevelResult base = level(100, 3, 90, 110);
		LevelResult other = level(115, 1, 115, 115);
		Comparison.Change change = Comparison.change(base, other, 10);
		assertThat(change.bound()).isCloseTo(20, within(1e-9));
		assertThat(change.percent(Figures.RPS)).isCloseTo(15, within(1e-9));
		assertThat(change.beyond(change.percent(Figures.RPS))).isFalse();
		// Without repeats the 10% noise bound decides: +15% is beyond it.
		Comparison.Change single = Comparison.change(level(100, 1, 100, 100), other, 10);
		assertThat(single.beyond(single.percent(Figures.RPS))).isTrue();
	}

	@Test
	void changesPrintAsWholeSignedPercentsAndNeverAsMinusZero() {
		assertThat(Comparison.signed(6.4)).isEqualTo("+6%");
		assertThat(Comparison.signed(-11.2)).isEqualTo("-11%");
		assertThat(Comparison.signed(-0.3)).isEqualTo("0%");
		assertThat(Comparison.signed(Double.NaN)).isEqualTo("-");
	}

	/** A level with only what the comparison reads: rps, its repeats' range, an OK verdict. */
	private static LevelResult level(double rps, int repeats, double min, double max) {
		return TestRows.row("v", new Level.Closed(100)).repeats(repeats).set(Figures.RPS, rps, Figures.RPS_MIN, min, Figures.RPS_MAX, max,
				Figures.CEILING_RPS, 200, Figures.EFFICIENCY, rps / 200, Figures.P99_ALL_MS, 500, Figures.CPU_MS_PER_REQUEST, 0.2).build();
	}

	@Test
	void eachNamedRequestOfAServiceOfTheUsersOwnStandsSideBySideByRun() throws Exception {
		Path a = Files.createDirectories(this.dir.resolve("a"));
		Path b = Files.createDirectories(this.dir.resolve("b"));
		Level users = new Level.Closed(200);
		LevelResult before = TestRows.row("orders-vt-on", users).set(Figures.RPS, 546).byRequest(
				new lab.analyse.measure.RequestFigures("order", 4881, 0, 0, 369.4, 405.2, 757.8, null, Double.NaN, null),
				new lab.analyse.measure.RequestFigures("search", 1627, 3, 0.18, 354.6, 387.8, 399.4, null, Double.NaN, null)).build();
		LevelResult after = TestRows.row("orders-vt-on", users).set(Figures.RPS, 559).byRequest(
				new lab.analyse.measure.RequestFigures("order", 5079, 0, 0, 361.0, 719.9, 1351.7, null, Double.NaN, null)).build();
		Comparison c = Comparison.of(List.of(new Comparison.Run("a", a, Manifest.read(a), List.of(before)),
				new Comparison.Run("b", b, Manifest.read(b), List.of(after))), 0, 10);
		List<java.util.Map<String, Object>> rows = CompareWriter.requestRows(c);
		assertThat(rows).extracting(r -> r.get("request")).containsExactly("order", "search");
		assertThat(rows.get(0).get("cells")).isEqualTo(List.of("405 / 369, errors 0.00%", "720 / 361, errors 0.00%"));
		assertThat(rows.get(1).get("cells")).as("a run without the request says so").isEqualTo(List.of("388 / 355, errors 0.18%", "-"));
		java.nio.file.Path html = new CompareWriter().write(c, this.dir.resolve("out"));
		assertThat(Files.readString(html)).contains("Each named request, side by side").contains("720 / 361, errors 0.00%");
		assertThat(Files.readString(this.dir.resolve("out/compare.json"))).contains("\"byRequest\"");
	}

}
