package lab.layout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The user's requests as the runner writes them and the simulation reads them back. */
class RequestMixTests {

	@TempDir
	Path dir;

	@Test
	void requestsComeBackAsWrittenTabsNewlinesAndAmpersandsIncluded() throws Exception {
		List<RequestMix.Request> requests = List.of(
				new RequestMix.Request("read", "GET", "/orders/7?waitMs=20&x=a b", Map.of(), null, 3, 200),
				new RequestMix.Request("write", "POST", "/orders", Map.of("Content-Type", "application/json", "X-Note", "a=b&c\td"),
						"{\"item\": \"tea\",\n\t\"note\": \"50%\"}", 1, 201));
		Path file = this.dir.resolve("requests.tsv");
		RequestMix.write(requests, file);
		assertThat(Files.readAllLines(file)).hasSize(2);
		assertThat(RequestMix.read(file)).isEqualTo(requests);
	}

	@Test
	void sharesAddUpToOneHundredExactly() {
		List<RequestMix.Request> three = List.of(request(1), request(1), request(1));
		double[] percents = RequestMix.percents(three);
		assertThat(percents[0]).isEqualTo(100.0 / 3);
		assertThat(percents[0] + percents[1] + percents[2]).isEqualTo(100.0);
		assertThat(RequestMix.percents(List.of(request(3), request(1)))).containsExactly(75.0, 25.0);
	}

	@Test
	void aLineThatIsNotARequestIsNamed() throws Exception {
		Path file = this.dir.resolve("bad.tsv");
		Files.writeString(file, "1\t200\tGET\n");
		assertThatThrownBy(() -> RequestMix.read(file)).hasMessageContaining("line 1: not a request");
	}

	static RequestMix.Request request(int weight) {
		return new RequestMix.Request("r", "GET", "/", Map.of(), null, weight, 200);
	}

}
