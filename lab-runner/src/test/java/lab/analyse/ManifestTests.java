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
	void theCommitIsReadFromAGitDirectoryWithoutGit() throws Exception {
		java.nio.file.Files.writeString(this.dir.resolve("HEAD"), "ref: refs/heads/main\n");
		// packed: no file under refs/heads/
		java.nio.file.Files.writeString(this.dir.resolve("packed-refs"), "# pack-refs with: peeled fully-peeled sorted\n"
				+ "1111111111111111111111111111111111111111 refs/heads/other\n2222222222222222222222222222222222222222 refs/heads/main\n");
		org.assertj.core.api.Assertions.assertThat(Manifest.headOf(this.dir)).contains("2222222222222222222222222222222222222222");
		java.nio.file.Files.createDirectories(this.dir.resolve("refs/heads"));
		java.nio.file.Files.writeString(this.dir.resolve("refs/heads/main"), "3333333333333333333333333333333333333333\n");
		org.assertj.core.api.Assertions.assertThat(Manifest.headOf(this.dir)).contains("3333333333333333333333333333333333333333");
		// a detached HEAD names the commit itself
		java.nio.file.Files.writeString(this.dir.resolve("HEAD"), "4444444444444444444444444444444444444444\n");
		org.assertj.core.api.Assertions.assertThat(Manifest.headOf(this.dir)).contains("4444444444444444444444444444444444444444");
	}

	@Test
	void pinnedThresholdIsTheServicesDefaultUnlessTheRunSetsIt() {
		assertThat(Manifest.pinnedThreshold(List.of("-Xmx512m"), false)).isEqualTo("1ms (lab.pinned-threshold, the services' default)");
		assertThat(Manifest.pinnedThreshold(List.of("-Dlab.pinned-threshold=0ms"), false))
			.isEqualTo("0ms (lab.pinned-threshold, set for this run)");
		assertThat(Manifest.pinnedThreshold(List.of(), true)).startsWith("1ms").contains("lab_pinned_threshold_seconds");
	}

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
