package lab.analyse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import lab.analyse.judge.Rule;
import lab.analyse.judge.Thresholds;
import lab.plan.Scenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class ManifestTests {

	@TempDir
	Path dir;

	@Test
	void readsBackTypedWhatTheRunWrote() throws Exception {
		Thresholds strict = Thresholds.DEFAULT.with(Rule.INJECTOR_BUSY, 80).with(Rule.ERRORS, 1).with(Rule.NOT_WARM_JIT, 5);
		Manifest written = new Manifest("2026-11-22T10:00:00Z", Map.of("hostname", "box", "cores", 2), Map.of("version", "25"),
				Map.of("lab.version", "0.1.0"), "abc", "t2-micro", Map.of("service", "0", "downstreamAndInjector", "1"),
				Map.of("injectors", List.of()), Map.of("service", List.of("-XX:MaxRAM=1g")), Scenario.load("smoke"),
				List.of(Map.of("id", "users-20", "users", 20)), strict, "1ms",
				Map.of("tuned", new Manifest.AppliedTuning("small buffers", Map.of("app-webflux.tuned",
						new Manifest.Applied(List.of("-XX:MaxRAMPercentage=68"), Map.of("lab.webflux.endpoint", "functional"))))),
				List.of("./lab", "run"), Map.of("jdk21", Map.of("version", "openjdk version \"21.0.8\"", "home", "/jdk21")),
				Map.of("app-webflux.work40", new lab.plan.Work(40, 4096)));
		lab.analyse.LevelJson.json.writeValue(this.dir.resolve("manifest.json").toFile(), written);
		assertThat(Manifest.read(this.dir)).isEqualTo(written);
		assertThat(Manifest.read(this.dir).thresholds().get(Rule.ERRORS)).isEqualTo(1);
	}

	@Test
	void aRunOlderThanAFieldReadsWithoutIt() throws Exception {
		// No thresholds (runs before they were recorded), a field since dropped, no tunings: defaults and nulls.
		Files.writeString(this.dir.resolve("manifest.json"), "{\"startedAt\":\"2026-10-01T00:00:00Z\",\"dropped\":1,"
				+ "\"scenario\":{\"name\":\"seed\",\"model\":\"CLOSED\",\"users\":[1000],\"delayMs\":500,\"holdSeconds\":30}}");
		Manifest old = Manifest.read(this.dir);
		assertThat(old.thresholds()).isEqualTo(Thresholds.DEFAULT);
		assertThat(old.scenarioName("?")).isEqualTo("seed");
		assertThat(old.tunings()).isNull();
		assertThat(Manifest.read(this.dir.resolve("absent")).scenarioName("unknown")).isEqualTo("unknown");
	}

}
