package lab.sample;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The CPU reference a capacity search times on the service's core between rounds. */
class CpuReferenceTests {

	@Test
	void itIsTimedInAJvmOfItsOwnFromTheRunnersClassPath() throws Exception {
		double ms = CpuReference.time(Path.of(System.getProperty("java.home"), "bin", "java"), null);
		assertThat(ms).as("a median batch of SHA-256 over 64 KiB").isPositive().isLessThan(10_000);
	}

	@Test
	void theRunnersSpringBootJarIsStartedByItsLauncher() {
		assertThat(CpuReference.launch("/lab/lab-runner/target/lab-runner-exec.jar")).containsExactly("-cp", "/lab/lab-runner/target/lab-runner-exec.jar",
				"-Dloader.main=lab.sample.CpuReference", "org.springframework.boot.loader.launch.PropertiesLauncher");
		assertThat(CpuReference.launch("/a/classes:/b/x.jar")).isEqualTo(List.of("-cp", "/a/classes:/b/x.jar", "lab.sample.CpuReference"));
	}

	@Test
	void theHostsStealAndTotalTicksAreRead() {
		long[] ticks = CpuReference.stealAndTotalTicks();
		assertThat(ticks[1]).as("total ticks").isPositive();
		assertThat(ticks[0]).as("steal ticks").isBetween(0L, ticks[1]);
	}

}
