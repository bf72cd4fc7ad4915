package lab.sample;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** Another process on the service's core is measured and named: a busy loop the test pins to CPU 0 itself. */
class CoreStrangersTests {

	@TempDir
	Path dir;

	/**
	 * A busy loop pinned to CPU 0 (a parent, {@code timeout}, whose child {@code sh} spins; bounded: it ends by itself
	 * after 20 s, and is stopped by its PID), watched for 4.5 s with this test's JVM as the service and, when
	 * {@code loopIsTheDatabase}, the loop's parent as the service's database; returns the strangers' share of CPU 0 in %.
	 */
	private double strangersShare(boolean loopIsTheDatabase, long[] shell) throws Exception {
		Assumptions.assumeTrue(Runtime.getRuntime().availableProcessors() >= 2 && new ProcessBuilder("taskset", "-V").start().waitFor() == 0,
				"needs 2+ cores and taskset");
		Process loop = new ProcessBuilder("timeout", "20", "taskset", "-c", "0", "sh", "-c", "while :; do :; done").start();
		try (Sampler sampler = new Sampler(this.dir.resolve("metrics.csv"))) {
			sampler.watchStrangers(Set.of(0), ProcessHandle.current().pid(), loopIsTheDatabase ? loop.pid() : -1, this.dir.resolve("core-strangers.csv"));
			Thread.sleep(4500);
			shell[0] = loop.descendants().map(ProcessHandle::pid).findFirst().orElse(-1L);
		}
		finally {
			loop.descendants().forEach(ProcessHandle::destroy);
			loop.destroy();
			loop.waitFor(10, TimeUnit.SECONDS);
		}
		List<double[]> samples = Files.readAllLines(this.dir.resolve("metrics.csv")).stream()
			.filter(line -> line.contains(",service,strangers_cpu_seconds,"))
			.map(line -> new double[] { Double.parseDouble(line.split(",")[0]), Double.parseDouble(line.split(",")[3]) }).toList();
		assertThat(samples).hasSizeGreaterThanOrEqualTo(4);
		double[] first = samples.get(1);
		double[] last = samples.get(samples.size() - 1);
		return 100 * (last[1] - first[1]) / ((last[0] - first[0]) / 1000);
	}

	@Test
	void aBusyLoopOnTheServicesCoreIsMeasuredAndNamed() throws Exception {
		long[] shell = { -1 };
		// The "service": this test's JVM, left out like the real one; only other processes count. The loop alone would use
		// the whole core; other work on CPU 0 (the kernel, this JVM) takes some.
		assertThat(strangersShare(false, shell)).as("strangers' share of CPU 0").isGreaterThan(50);
		String named = Files.readString(this.dir.resolve("core-strangers.csv"));
		assertThat(named).startsWith("epoch_ms,pid,command,cpu_seconds").contains(",sh,");
		if (shell[0] > 0) {
			assertThat(named).contains("," + shell[0] + ",sh,");
		}
	}

	@Test
	void theServicesOwnDatabaseOnItsCoreIsNoStranger() throws Exception {
		// The "database": the loop's parent (timeout, as a postmaster) and its spinning child (sh, as a backend).
		assertThat(strangersShare(true, new long[] { -1 })).as("strangers' share of CPU 0 with the busy child the database's").isLessThan(30);
		assertThat(Files.readString(this.dir.resolve("core-strangers.csv"))).doesNotContain(",sh,");
	}

}
