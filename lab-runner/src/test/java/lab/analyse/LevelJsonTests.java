package lab.analyse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import lab.analyse.judge.Figure;
import lab.analyse.judge.Figures;
import lab.analyse.judge.LevelResult;
import lab.analyse.measure.Metric;
import lab.analyse.read.LevelFacts;
import lab.layout.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

public class LevelJsonTests {

	@TempDir
	Path dir;

	@Test
	void writesTheLevelAsTheFilesAlwaysHadItAndReadsItBack() throws Exception {
		LevelFacts capped = facts(new Level.Closed(9_900), 10_000);
		LevelFacts.write(this.dir, capped);
		String file = Files.readString(this.dir.resolve("level.json"));
		assertThat(file.replaceAll("\\s", "")).startsWith("{\"variant\":\"app-webflux\",\"users\":9900,\"ratePerSecond\":0,\"cappedFrom\":10000,\"delayMs\":500,");
		assertThat(LevelFacts.read(this.dir)).isEqualTo(capped);

		LevelFacts open = facts(new Level.Open(500), null);
		LevelFacts.write(this.dir, open);
		assertThat(Files.readString(this.dir.resolve("level.json")).replaceAll("\\s", "")).contains("\"users\":0,\"ratePerSecond\":500,\"cappedFrom\":0,");
		assertThat(LevelFacts.read(this.dir)).isEqualTo(open);
		assertThat(LevelFacts.read(this.dir).ceilingRps()).isEqualTo(500);
	}

	@Test
	void aSummaryRowKeepsItsFieldsInTheirPlaces() {
		LevelResult row = TestRows.row("v", new Level.Closed(100)).set(Figures.RPS, 200, Figures.REQUESTS, 1000, Metric.GC_PERCENT, 1).build();
		List<String> fields = LevelJson.row(row).propertyNames().stream().limit(5).toList();
		assertThat(fields).containsExactly("variant", "users", "ratePerSecond", "load", "repeats");
		assertThat(LevelJson.row(row).path("load").asInt()).isEqualTo(100);
		// Each declared figure a field of its own, in declaration order after the repeats; a count a whole number.
		List<String> figures = LevelJson.row(row).propertyNames().stream().skip(5).limit(Figures.ALL.size()).toList();
		assertThat(figures).containsExactlyElementsOf(Figures.ALL.stream().map(Figure::field).toList());
		assertThat(LevelJson.row(row).path("requests").isIntegralNumber()).isTrue();
		assertThat(LevelJson.row(row).path("rps").asDouble()).isEqualTo(200);
		assertThat(LevelJson.row(row).path("gcPercent").asDouble()).isEqualTo(1);
		assertThat(LevelJson.row(row).path("p99AllMs").asString()).as("a figure not computed").isEqualTo("NaN");
		assertThat(LevelJson.row(row).get("meetsTarget").isNull()).as("a level not judged against a target").isTrue();
	}

	public static LevelFacts facts(Level level, Integer cappedFrom) {
		return new LevelFacts("app-webflux", level, cappedFrom, 500, 1, true, 1, 1, true, null, false, 0, List.of(), List.of(), null,
				30_000L, true, true, null, null, null, null);
	}

	@Test
	void aLevelThatNeverRanRecordsWhoseFaultItWasAndTheAnalysisGivesTheVerdict() {
		assertThat(LevelJudge.verdict(LevelFacts.Blame.read("service"))).isEqualTo(LevelResult.Verdict.FAILED);
		assertThat(LevelJudge.verdict(LevelFacts.Blame.read("harness"))).isEqualTo(LevelResult.Verdict.INVALID);
		assertThat(LevelJudge.verdict(LevelFacts.Blame.read("runner ended"))).isEqualTo(LevelResult.Verdict.INTERRUPTED);
		// Files written when the runner recorded the verdict itself read the same; older ones, without it, were the service's.
		assertThat(LevelFacts.Blame.read("INVALID")).isEqualTo(LevelFacts.Blame.HARNESS);
		assertThat(LevelFacts.Blame.read("INTERRUPTED")).isEqualTo(LevelFacts.Blame.RUNNER_ENDED);
		assertThat(LevelFacts.Blame.read(null)).isEqualTo(LevelFacts.Blame.SERVICE);
		assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> LevelFacts.Blame.read("OK"))).hasMessageContaining("notRun \"OK\"");
	}

}
