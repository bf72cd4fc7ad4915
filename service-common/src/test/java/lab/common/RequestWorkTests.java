package lab.common;

import java.nio.charset.StandardCharsets;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class RequestWorkTests {

	private static final String BODY = "{\"street\":\"1 Loom Street\",\"city\":\"Lisbon\",\"delayMs\":500}";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@Test
	void withoutParametersTheAnswerIsTheDownstreamsBodyUnchanged() {
		RequestWork none = RequestWork.parse(null, null);
		assertThat(none.none()).isTrue();
		assertThat(none.answer(BODY)).isSameAs(BODY);
		assertThat(RequestWork.parse("", "")).isEqualTo(RequestWork.NONE);
	}

	@ParameterizedTest
	@ValueSource(ints = { 400, 1000, 4096, 10_000, 65_536 })
	void theAnswerHasExactlyTheBytesAsked(int bytes) {
		String answer = new RequestWork(2, bytes).answer(BODY);
		assertThat(answer.getBytes(StandardCharsets.UTF_8)).hasSize(bytes);
		JsonNode json = JSON.readTree(answer);
		assertThat(json.path("address").path("street").asString()).isEqualTo("1 Loom Street");
		assertThat(json.path("rounds").asInt()).isEqualTo(2);
	}

	@Test
	void aSizeBelowTheSmallestAnswerGivesTheSmallestAnswer() {
		String answer = new RequestWork(1, 10).answer(BODY);
		assertThat(JSON.readTree(answer).path("records").size()).isZero();
		assertThat(answer.length()).isGreaterThan(10).isLessThan(200);
	}

	@Test
	void everyRoundChangesTheDigestAndTheSameWorkGivesTheSameAnswer() {
		String one = JSON.readTree(new RequestWork(1, 0).answer(BODY)).path("digest").asString();
		String two = JSON.readTree(new RequestWork(2, 0).answer(BODY)).path("digest").asString();
		assertThat(one).matches("[0-9a-f]{64}").isNotEqualTo(two);
		assertThat(new RequestWork(5, 2000).answer(BODY)).isEqualTo(new RequestWork(5, 2000).answer(BODY));
		// The downstream's answer seeds the work: another body, another digest.
		assertThat(JSON.readTree(new RequestWork(1, 0).answer(BODY.replace("500", "501"))).path("digest").asString()).isNotEqualTo(one);
	}

	@Test
	void aRoundSerialisesAPageOfGeneratedRecords() {
		var records = RequestWork.records(new byte[32], 3, RequestWork.RECORDS_PER_ROUND);
		assertThat(records).hasSize(16);
		assertThat(JSON.writeValueAsBytes(new RequestWork.Page(3, records)).length).isBetween(1000, 3000);
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', quoteCharacter = '"', value = { "abc | | work must be an integer number of rounds, got 'abc'",
			"-1 | | work must be between 0 and 10000, got -1", "10001 | | work must be between 0 and 10000, got 10001",
			" | 1.5 | bytes must be an integer number of bytes, got '1.5'", " | 1048577 | bytes must be between 0 and 1048576, got 1048577" })
	void rejectsWithAReason(String work, String bytes, String message) {
		assertThatExceptionOfType(BadParameterException.class).isThrownBy(() -> RequestWork.parse(work, bytes)).withMessage(message);
	}

}
