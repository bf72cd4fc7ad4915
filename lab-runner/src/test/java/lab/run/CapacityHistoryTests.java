package lab.run;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import lab.layout.RunDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** Where the next search on this host starts: the last crossings per scenario, arm, target and variant, with their commit. */
class CapacityHistoryTests {

	@TempDir
	Path results;

	@Test
	void theLastRunsCrossingsOnThisHostAreWhereTheNextBracketStarts() throws Exception {
		CapacityHistory history = new CapacityHistory(this.results);
		assertThat(history.last("capacity", "default", "p99<=1000ms")).as("no run yet").isEmpty();
		Map<String, Double> first = new LinkedHashMap<>();
		first.put("app-webflux", 3_088.4);
		first.put("app-tomcat-loom", 1_064.0);
		history.record("capacity", "default", "p99<=1000ms", first, "853f9f7");
		history.record("capacity", "default", "p99<=1000ms", Map.of("app-webflux", 3_244.0), "0ffeb39");
		Map<String, CapacityHistory.Crossing> last = history.last("capacity", "default", "p99<=1000ms");
		// The later run replaced its variant's crossing; the other variant's stands, with the commit that measured it.
		assertThat(last.get("app-webflux").users()).isEqualTo(3_244.0);
		assertThat(last.get("app-webflux").commit()).isEqualTo("0ffeb39");
		assertThat(last.get("app-tomcat-loom").users()).isEqualTo(1_064.0);
		// Another scenario, arm or target starts afresh.
		assertThat(history.last("capacity-map", "default", "p99<=1000ms")).isEmpty();
		assertThat(history.last("capacity", "work100", "p99<=1000ms")).isEmpty();
		assertThat(history.last("capacity", "default", "p99<=500ms")).isEmpty();
		// A file that cannot be read is no history, never an error: the bracket then starts from the scenario's load.
		Files.writeString(this.results.resolve(RunDir.CAPACITY_HISTORY), "{not json");
		assertThat(new CapacityHistory(this.results).last("capacity", "default", "p99<=1000ms")).isEmpty();
	}

	@Test
	void aHostWithNoCrossingsOfItsOwnStartsFromTheOnesTheLabShipsAndItsOwnComeFirst() throws Exception {
		CapacityHistory history = new CapacityHistory(this.results);
		String target = lab.layout.LatencyTarget.DEFAULT.text();
		Map<String, CapacityHistory.Crossing> shipped = history.last("capacity", "default", target);
		// Every variant of the lab, at what this project measured (the median of three runs), marked as shipped.
		assertThat(shipped).containsOnlyKeys("app-webflux", "app-webflux-loom", "app-jetty-loom", "app-tomcat-loom", "app-tomcat-platform");
		assertThat(shipped.values()).allSatisfy(c -> assertThat(CapacityHistory.shipped(c)).isTrue());
		assertThat(shipped.get("app-tomcat-platform").users()).isBetween(300.0, 500.0);
		// The host's own crossing, once it has one, comes first; the others stay the shipped ones.
		history.record("capacity", "default", target, Map.of("app-webflux", 2_130.0), "abc1234");
		Map<String, CapacityHistory.Crossing> mixed = history.last("capacity", "default", target);
		assertThat(mixed.get("app-webflux").users()).isEqualTo(2_130.0);
		assertThat(CapacityHistory.shipped(mixed.get("app-webflux"))).isFalse();
		assertThat(CapacityHistory.shipped(mixed.get("app-tomcat-loom"))).isTrue();
		// Only for the search it was measured in: another scenario, arm or target has none.
		assertThat(history.last("capacity-map", "default", target)).isEmpty();
		assertThat(history.last("capacity", "tuned", target)).isEmpty();
	}

}
