package lab.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import lab.analyse.Analyser;
import lab.analyse.Comparison;
import lab.analyse.GoldenFixtures;
import lab.analyse.Manifest;
import lab.analyse.judge.Catalogue;
import lab.analyse.judge.Figure;
import lab.analyse.judge.FigureRule;
import lab.analyse.judge.Figures;
import lab.analyse.judge.LevelResult;
import lab.analyse.judge.Rule;
import lab.analyse.judge.Thresholds;
import lab.plan.Variant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A figure and a rule that the lab does not have, added through their declarations alone (no other class changed):
 * summary.json, the report's table, {@code ./lab compare} and the verdicts follow.
 */
class MadeUpFigureTests {

	/** Twice the throughput: derived from a figure declared before it, shown in the results table, compared. */
	static final Figure DOUBLED = Figure.of("doubledRps", "1/s", "twice the throughput (a made-up figure)", r -> 2 * r.value(Figures.RPS))
		.shown(Figure.Table.MAIN, "2× rps", Figure.Format.NUMBER)
		.compared(Figure.Compared.changed("2× rps", "doubled", true));

	/** FAILED when twice the throughput is over 300 rps: judged by the one evaluator, its reason from here. */
	static final FigureRule TOO_FAST = FigureRule.of("too_fast", "doubledOverRps", 300, "rps", Rule.Effect.FAILED, DOUBLED, FigureRule.Op.ABOVE,
			"twice the throughput {value} rps > {bound}, of {rps} rps");

	@TempDir
	Path dir;

	@Test
	void aMadeUpFigureAndRuleReachSummaryJsonTheReportTheVerdictAndCompare() throws Exception {
		Path results = GoldenFixtures.write(Files.createDirectories(this.dir.resolve("a")));
		Catalogue catalogue = Catalogue.STANDARD.with(DOUBLED).with(TOO_FAST);
		new ReportWriter().write(new Analyser(Thresholds.DEFAULT, catalogue).run(results, Manifest.readTree(results), null));

		JsonNode row = row(results, "app-webflux", 100);
		// Golden OK level: 190 rps, so 380 > 300: FAILED by the made-up rule alone (it was OK without it).
		assertThat(row.path("doubledRps").asDouble()).isEqualTo(380.0);
		assertThat(row.path("verdict").asString()).isEqualTo("FAILED");
		assertThat(row.path("reasons").get(0).asString()).isEqualTo("twice the throughput 380 rps > 300 rps, of 190 rps");
		assertThat(Files.readString(results.resolve("report.html"))).contains(">2× rps</th>").contains("<td>380</td>")
			.contains("twice the throughput 380 rps &gt; 300 rps");
		assertThat(Files.readString(results.resolve("summary.md"))).contains(" 2× rps |").contains("| 380 |");
		// The lab's own catalogue: the same level OK, no such field.
		Path plain = GoldenFixtures.write(Files.createDirectories(this.dir.resolve("plain")));
		new ReportWriter().write(new Analyser(Thresholds.DEFAULT).run(plain, Manifest.readTree(plain), null));
		assertThat(row(plain, "app-webflux", 100).path("verdict").asString()).isEqualTo("OK");
		assertThat(row(plain, "app-webflux", 100).has("doubledRps")).isFalse();

		// ./lab compare of two runs analysed with the figure (without the rule, so the levels stay OK and a change is computed).
		Path b = GoldenFixtures.write(Files.createDirectories(this.dir.resolve("b")));
		Catalogue figureOnly = Catalogue.STANDARD.with(DOUBLED);
		List<Comparison.Run> runs = List.of(run(plain, figureOnly), run(b, figureOnly));
		Path out = Files.createDirectories(this.dir.resolve("compare"));
		new CompareWriter().write(Comparison.of(runs, 0, 10), out);
		assertThat(Files.readString(out.resolve("compare.md"))).contains(" 2× rps |").contains(" Δ doubled |");
		JsonNode compared = new JsonMapper().readTree(out.resolve("compare.json").toFile());
		JsonNode other = null;
		for (JsonNode r : compared.path("rows")) {
			if (r.path("variant").asString().equals("app-webflux") && r.path("load").asInt() == 100) {
				other = r.path("runs").get(1);
			}
		}
		assertThat(other.path("doubledRps").asDouble()).isEqualTo(380.0);
		assertThat(other.path("doubledChangePercent").asDouble()).isZero();
	}

	private static Comparison.Run run(Path results, Catalogue catalogue) throws Exception {
		Manifest manifest = Manifest.read(results);
		List<LevelResult> levels = new Analyser(manifest.thresholds(), catalogue).analyse(results, Variant.names());
		return new Comparison.Run(results.getFileName().toString(), results, manifest, levels);
	}

	private static JsonNode row(Path results, String variant, int load) throws Exception {
		for (JsonNode row : new JsonMapper().readTree(results.resolve("summary.json").toFile()).path("results")) {
			if (row.path("variant").asString().equals(variant) && row.path("load").asInt() == load) {
				return row;
			}
		}
		throw new AssertionError("no row " + variant + " at " + load);
	}

}
