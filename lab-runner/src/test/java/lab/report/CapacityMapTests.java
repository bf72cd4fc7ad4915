package lab.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import lab.analyse.Manifest;
import lab.analyse.RunAnalysis;
import lab.analyse.TestRows;
import lab.analyse.judge.Figures;
import lab.analyse.judge.LevelResult;
import lab.analyse.judge.LevelResult.Verdict;
import lab.analyse.judge.Thresholds;
import lab.json.Json;
import lab.layout.Level;
import lab.plan.Overrides;
import lab.plan.Scenario;
import lab.plan.Work;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/** The capacity map: each variant's capacity within the target per work per request, from the levels' judgments alone. */
class CapacityMapTests {

	@TempDir
	Path dir;

	/** Two variants, works 0 and 40; app-webflux.work40 never missed the target (a lower bound). */
	static List<LevelResult> levels() {
		return List.of(
				level("app-webflux.work0", 1000, Verdict.OK, true, 1900, 0.25), level("app-webflux.work0", 2000, Verdict.OK, true, 3800, 0.22),
				level("app-webflux.work0", 2200, Verdict.OK, false, 3900, 0.24),
				level("app-webflux.work40", 200, Verdict.OK, true, 390, 2.1), level("app-webflux.work40", 300, Verdict.OK, true, 560, 2.2),
				level("app-tomcat-loom.work0", 1000, Verdict.OK, true, 1650, 0.3), level("app-tomcat-loom.work0", 2000, Verdict.FAILED, false, 20, 1.0),
				level("app-tomcat-loom.work40", 200, Verdict.OK, false, 380, 2.4),
				// INVALID bounds nothing and meets nothing.
				level("app-tomcat-loom.work40", 100, Verdict.INVALID, false, 190, 2.3));
	}

	static LevelResult level(String variant, int users, Verdict verdict, boolean meets, double rps, double cpuMs) {
		return TestRows.row(variant, new Level.Closed(users)).set(Figures.RPS, rps, Figures.CPU_MS_PER_REQUEST, cpuMs)
			.verdict(verdict).meets((verdict == Verdict.INVALID) ? null : meets).build();
	}

	static ObjectNode manifest(List<Integer> works) {
		Scenario scenario = new Overrides(List.of("app-webflux", "app-tomcat-loom"), List.of(100), null, null, null, null, null, null, null, null, null,
				works, 0, null).applyTo(Scenario.load("capacity"));
		Map<String, Work> labels = new LinkedHashMap<>();
		for (String variant : scenario.variants()) {
			for (int rounds : works) {
				labels.put((works.size() > 1) ? variant + ".work" + rounds : variant, new Work(rounds, 0));
			}
		}
		ObjectNode manifest = Json.MAPPER.createObjectNode();
		manifest.set("scenario", Json.MAPPER.valueToTree(scenario));
		manifest.set("works", Json.MAPPER.valueToTree(labels));
		return manifest;
	}

	@Test
	void eachVariantGetsARowAndEachWorkACellFromItsOwnLevels() {
		List<LevelResult> levels = levels();
		CapacityMap map = CapacityMap.of(ReportScope.verdicts(levels, lab.plan.Variants.LAB), levels, Manifest.parse(manifest(List.of(0, 40))));
		assertThat(map.works()).containsExactly(new Work(0, 0), new Work(40, 0));
		assertThat(map.rows()).extracting(CapacityMap.Row::variant).containsExactly("app-webflux", "app-tomcat-loom");
		CapacityMap.Row webflux = map.rows().get(0);
		assertThat(webflux.cells().get(0)).isEqualTo(new CapacityMap.Cell(2000, 3800, 0.22, 2200));
		assertThat(webflux.cells().get(1)).isEqualTo(new CapacityMap.Cell(300, 560, 2.2, 0));
		assertThat(webflux.cells().get(1).text("users")).isEqualTo("≥ 300 users (560 rps, 2.20 ms CPU/req)");
		CapacityMap.Row tomcat = map.rows().get(1);
		assertThat(tomcat.cells().get(0).text("users")).isEqualTo("1,000 users (1,650 rps, 0.30 ms CPU/req)");
		assertThat(tomcat.cells().get(1).text("users")).isEqualTo("none (missed at 200)");
		assertThat(tomcat.model()).contains("virtual thread");
	}

	@Test
	void aRunWithOneWorkHasNoMap() {
		List<LevelResult> levels = levels();
		assertThat(CapacityMap.of(ReportScope.verdicts(levels, lab.plan.Variants.LAB), levels, Manifest.parse(manifest(List.of(0)))).isEmpty()).isTrue();
	}

	@Test
	void theReportAndTheSummaryShowTheMapWithItsChart() throws Exception {
		RunAnalysis analysis = new RunAnalysis(this.dir, manifest(List.of(0, 40)), Thresholds.DEFAULT, null, levels(), List.of(), List.of(), Map.of());
		new ReportWriter().write(analysis);
		String html = Files.readString(this.dir.resolve("report.html"));
		assertThat(html).contains("<h2 id=\"capacity-map\">Capacity map</h2>").contains("<th title=\"40 serialise-and-hash rounds per request\">work40</th>")
			.contains("<td>2,000 users (3,800 rps, 0.22 ms CPU/req)</td>").contains("alt=\"Capacity within the target by work per request\"");
		assertThat(Files.readString(this.dir.resolve("summary.md"))).contains("## Capacity map")
			.contains("| app-webflux | 2,000 users (3,800 rps, 0.22 ms CPU/req) | ≥ 300 users (560 rps, 2.20 ms CPU/req) |");
	}

}
