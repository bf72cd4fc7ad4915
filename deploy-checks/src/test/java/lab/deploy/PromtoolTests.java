package lab.deploy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** promtool from Debian's prometheus package, where it could be installed (.ci/run extracts it). */
class PromtoolTests {

	@Test
	void promtoolAcceptsThePrometheusConfig() throws Exception {
		Path promtool = Path.of(System.getenv().getOrDefault("LAB_PROMTOOL", "promtool"));
		Assumptions.assumeTrue(runs(promtool.toString()), "SKIPPED: promtool is not installed (Debian package prometheus; .ci/run extracts it)");
		Path log = Files.createTempFile(Files.createDirectories(Path.of("target")), "promtool", ".log");
		Process process = new ProcessBuilder(promtool.toString(), "check", "config", Repo.root().resolve("prometheus/prometheus.yml").toString())
			.redirectErrorStream(true).redirectOutput(log.toFile()).start();
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
		assertThat(process.exitValue()).as(Files.readString(log)).isZero();
	}

	private static boolean runs(String command) {
		try {
			Process process = new ProcessBuilder(command, "--version").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
			return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
		}
		catch (Exception ex) {
			return false;
		}
	}

}
