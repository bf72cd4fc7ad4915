package lab;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import lab.analyse.Analyser;
import lab.analyse.judge.LevelResult;
import lab.analyse.judge.Thresholds;
import lab.analyse.measure.Measurement;
import lab.plan.Host;
import lab.plan.Jdks;
import lab.plan.Overrides;
import lab.plan.PlanException;
import lab.plan.RunPlan;
import lab.plan.Scenario;
import lab.run.Runner;
import lab.run.RunnerTests;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The services run on JDK 21, the LTS that brought virtual threads: {@code --java-home 21} finds one on the host or
 * installs the pinned runtime into {@code .tools/jdk-21}, and a real service serves a smoke level on it.
 */
@Tag("slow") // not in ./lab test --fast: installs a JDK and runs load
class Jdk21Tests {

	@TempDir(cleanup = CleanupMode.ON_SUCCESS)
	Path out;

	@AfterEach
	void noProcessIsLeftBehind() {
		assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).map(ProcessHandle::pid)).isEmpty();
	}

	@Test
	void aServiceServesOnJdk21() throws Exception {
		Path root = RunnerTests.root();
		Path jdk21 = jdk21(root);
		// The pipeline on 21, not the verdicts: one virtual-thread variant, a fixed 5 s warm-up.
		Scenario smoke = new Overrides(List.of("app-tomcat-loom"), null, null, null, 5, null, null, null, null, null, null).applyTo(Scenario.load("smoke"));
		RunPlan plan = RunPlan.of(smoke, root, this.out, jdk21, List.of(), Host.read());
		new Runner(plan, System.out).run(List.of("./lab", "run", "--scenario", "smoke", "--variants", "app-tomcat-loom", "--java-home", "21"));

		JsonNode manifest = JsonMapper.builder().build().readTree(this.out.resolve("manifest.json").toFile());
		assertThat(manifest.path("java").path("version").asString()).as(manifest.path("java").toString()).contains("\"21.");
		assertThat(Files.readString(this.out.resolve("app-tomcat-loom").resolve("command.txt"))).startsWith(jdk21.resolve("bin/java").toString());
		Path level = this.out.resolve("app-tomcat-loom").resolve("users-20");
		LevelResult result = new Analyser(Thresholds.DEFAULT).analyseOne(Measurement.of(level, this.out));
		assertThat(result.rps()).as("rps on JDK 21").isPositive();
		assertThat(result.verdict()).as(result.reasons().toString()).isNotEqualTo(LevelResult.Verdict.FAILED);
		// The level's pinned threads were recorded by JDK 21's own jcmd (what pinned, if anything, is the load's business).
		assertThat(level.resolve(lab.layout.LevelDir.PINNED_RECORDING)).as(Files.readString(level.resolve(lab.layout.LevelDir.PINNED_STOP_LOG))).isNotEmptyFile();
	}

	/** JDK 21, found or installed by the lab's own resolver; the test is skipped, saying why, where neither works. */
	private static Path jdk21(Path root) throws Exception {
		try {
			return Jdks.resolve("21", root, System.out);
		}
		catch (PlanException ex) {
			Assumptions.abort("skipped: no JDK 21 here and none could be installed: " + ex.getMessage());
			throw ex; // not reached: abort throws
		}
	}

}
