package lab.analyse.judge;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import lab.analyse.Analyser;
import lab.analyse.GoldenFixtures;
import lab.analyse.SchemaDoc;
import lab.analyse.judge.LevelResult.Verdict;
import lab.analyse.measure.Measurement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class RuleTests {

	@TempDir
	Path results;

	@Test
	void theSchemaDocHoldsEveryRuleAsDeclared() throws Exception {
		SchemaDoc.holds(Rule.schemaRows());
	}

	@Test
	void everyThresholdIsNamedInTheReportsText() {
		// Each threshold's value appears in the "how judged" paragraph through a sentence naming it; a changed value
		// changes the paragraph.
		String text = Rule.howJudged(Thresholds.DEFAULT);
		for (Rule rule : Rule.withThresholds()) {
			String changed = Rule.howJudged(Thresholds.DEFAULT.with(rule, 777));
			assertThat(changed).as(rule.key()).isNotEqualTo(text).contains(rule.format(777));
		}
		assertThat(text).startsWith("The measurement is judged first, then the service. INVALID when the injector exited non-zero")
			.contains("FAILED, warm or not, when the service died, when it logged an OutOfMemoryError")
			.contains("INTERRUPTED when the person stopped the run.")
			.contains("repeats spread over 10% of their median, the window's second half sent over 15% fewer requests per second");
	}

	@Test
	void theManifestRecordsEveryThresholdByItsKeyAndAnOldRunTakesTodaysOnlyForWhatItLacks() throws Exception {
		JsonMapper json = new JsonMapper();
		var written = json.readTree(json.writeValueAsString(Thresholds.DEFAULT.with(Rule.ERRORS, 1)));
		assertThat(written.propertyNames()).containsExactlyElementsOf(Rule.withThresholds().stream().map(Rule::key).toList());
		assertThat(written.path("errorPercent").asDouble()).isEqualTo(1);
		// A run recorded before secondHalfSlowerPercent existed, with a stricter error threshold: it keeps its 1% and
		// takes today's 15% for the rule it lacks, and says which.
		var old = json.readTree("{\"thresholds\":{\"errorPercent\":1}}");
		Thresholds recorded = Thresholds.recordedIn(old);
		assertThat(recorded.get(Rule.ERRORS)).isEqualTo(1);
		assertThat(recorded.get(Rule.SECOND_HALF_SLOWER)).isEqualTo(15);
		assertThat(Thresholds.defaultedIn(old)).contains("secondHalfSlowerPercent 15").doesNotContain("errorPercent 5");
		assertThat(Thresholds.recordedIn(json.readTree("{\"thresholds\":" + json.writeValueAsString(recorded) + "}"))).isEqualTo(recorded);
	}

	@Test
	void aSecondHalfThatSentFewerRequestsPerSecondIsANote() throws Exception {
		// The golden app-webflux level sends 192 requests a second (192.6 in the first half: 963 over 5 s, the late
		// timeout and 2 extra at +5,000 included). Its second half's five seconds (+7,000 … +11,000) now send 150:
		// 1 − 150 / 192.6 = 22.1% fewer > 15%. A note: the verdict stays OK.
		GoldenFixtures.write(this.results);
		Path level = this.results.resolve("app-webflux/users-100");
		String csv = Files.readString(level.resolve("requests.csv"));
		for (long second = GoldenFixtures.START + 7_000; second <= GoldenFixtures.START + 11_000; second += 1000) {
			csv = csv.replace(second + ",192,190,0,2,0,0,0", second + ",150,148,0,2,0,0,0");
		}
		Files.writeString(level.resolve("requests.csv"), csv);
		LevelResult result = new Analyser(Thresholds.DEFAULT).analyseOne(Measurement.of(level, this.results));
		assertThat(result.verdict()).isEqualTo(Verdict.OK);
		assertThat(result.reasons()).containsExactly("the window's second half sent 22% fewer requests per second than its first "
				+ "(193 → 150 rps > 15%): its throughput is the mean of two rates");
		// At a bound of 25% the same level is named for nothing.
		LevelResult lenient = new Analyser(Thresholds.DEFAULT.with(Rule.SECOND_HALF_SLOWER, 25)).analyseOne(Measurement.of(level, this.results));
		assertThat(lenient.reasons()).isEmpty();
	}

	@Test
	void aSecondHalfOfNothingSentIsTheFailureNotANote() throws Exception {
		// The same level, its second half's five seconds (+7,000 … +11,000) sending nothing and the responses stamped
		// +7,000 … +13,000 none: a service alive but no longer answering (as app-jetty-loom at 2,000 users in quick,
		// 5 → 0 rps). Silent from +6,000 to the window's end at +12,000: 6 s ≥ the 2 s a 500 ms delay allows → FAILED
		// "stalled". "100% fewer requests per second" would only repeat the failure.
		GoldenFixtures.write(this.results);
		Path level = this.results.resolve("app-webflux/users-100");
		String csv = Files.readString(level.resolve("requests.csv"));
		String completions = Files.readString(level.resolve("completions.csv"));
		for (long second = GoldenFixtures.START + 7_000; second <= GoldenFixtures.START + 13_000; second += 1000) {
			csv = csv.replace(second + ",192,190,0,2,0,0,0", second + ",0,0,0,0,0,0,0");
			completions = completions.replace(second + ",192,0", second + ",0,0");
		}
		Files.writeString(level.resolve("requests.csv"), csv);
		Files.writeString(level.resolve("completions.csv"), completions);
		LevelResult result = new Analyser(Thresholds.DEFAULT).analyseOne(Measurement.of(level, this.results));
		assertThat(result.verdict()).as(String.join("; ", result.reasons())).isEqualTo(Verdict.FAILED);
		assertThat(result.reasons()).noneMatch(reason -> reason.contains("second half"));
	}

	@Test
	void everySentenceNamesOnlyDeclaredThresholds() {
		assertThat(Rule.schemaRows()).hasSize(Rule.values().length + 2);
		assertThat(List.of(Rule.values())).allSatisfy(rule -> assertThat(rule.figure()).isNotNull());
	}

}
