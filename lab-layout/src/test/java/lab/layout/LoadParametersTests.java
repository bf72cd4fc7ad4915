package lab.layout;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LoadParametersTests {

	static Map<String, String> asMap(List<String> properties) {
		Map<String, String> map = new HashMap<>();
		properties.forEach(p -> map.put(p.substring(0, p.indexOf('=')), p.substring(p.indexOf('=') + 1)));
		return map;
	}

	@Test
	void whatTheRunnerWritesTheSimulationReadsBack() {
		LoadParameters closed = new LoadParameters("http://10.0.1.5:8081", LoadShape.SPIKE, new Level.Closed(2000), 500, 10, 60, 15, 30_000, LatencyTarget.DEFAULT, 20, 4096);
		assertThat(LoadParameters.read(asMap(closed.properties())::get)).isEqualTo(closed);
		LoadParameters open = new LoadParameters("http://127.0.0.1:8080", LoadShape.OPEN, new Level.Open(700), 100, 5, 20, 0, 60_000, null, 0, 0);
		Map<String, String> written = asMap(open.properties());
		assertThat(written).containsEntry("ratePerSecond", "700").doesNotContainKey("users").containsEntry("gatling.http.requestTimeout", "60000")
			.containsEntry("labRun", "true");
		assertThat(LoadParameters.read(written::get)).isEqualTo(open);
	}

	@Test
	void eachRequestAsksForTheWorkGivenAndPureWaitingKeepsTheBarePath() {
		LoadParameters working = new LoadParameters("http://127.0.0.1:8080", LoadShape.CLOSED, new Level.Closed(10), 500, 5, 20, 0, 60_000, null,
				20, 4096);
		assertThat(working.requestPath()).isEqualTo("/address/500?work=20&bytes=4096");
		assertThat(LoadParameters.STANDALONE.requestPath()).isEqualTo("/address/500");
		assertThat(asMap(working.properties())).containsEntry("work", "20").containsEntry("responseBytes", "4096");
		assertThatThrownBy(() -> LoadParameters.read(Map.of("work", "-3")::get)).hasMessage("work and responseBytes must not be negative");
	}

	@Test
	void aLabRunMissingAParameterFailsNamingItInsteadOfFallingBack() {
		Map<String, String> written = asMap(new LoadParameters("http://10.0.1.5:8081", LoadShape.CLOSED, new Level.Closed(2000), 500, 10, 60, 0,
				30_000, null, 0, 0).properties());
		written.remove("baseUrl");
		assertThatThrownBy(() -> LoadParameters.read(written::get)).isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("baseUrl is missing");
		assertThatThrownBy(() -> LoadParameters.outDir(written::get)).hasMessageStartingWith("outDir is missing");
	}

	@Test
	void aloneTheSimulationKeepsItsDocumentedDefaults() {
		assertThat(LoadParameters.read(name -> null)).isEqualTo(LoadParameters.STANDALONE);
		assertThat(LoadParameters.outDir(name -> null)).isEqualTo("target/lab-load");
		assertThat(LoadParameters.read(Map.of("users", "7", "gatling.http.requestTimeout", "5000")::get))
			.isEqualTo(new LoadParameters("http://127.0.0.1:8080", LoadShape.CLOSED, new Level.Closed(7), 500, 5, 20, 0, 5_000, null, 0, 0));
		assertThatThrownBy(() -> LoadParameters.read(Map.of("users", "many")::get)).hasMessage("users must be an integer, got 'many'");
		assertThatThrownBy(() -> LoadParameters.read(Map.of("shape", "open", "ratePerSecond", "0")::get)).hasMessage("ratePerSecond must be at least 1");
	}

}
