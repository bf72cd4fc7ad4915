package lab.sample;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import lab.launch.Children;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** A JVM with none of the lab's meters (no Actuator, no endpoint) sampled from outside: /proc and jstat. */
class ExternalSamplingTests {

	@TempDir
	Path dir;

	@Test
	void aJstatLineBecomesTheHeapAndGcSeries() {
		List<String> header = List.of("S0C", "S1C", "S0U", "S1U", "EC", "EU", "OC", "OU", "MC", "MU", "CCSC", "CCSU", "YGC", "YGCT", "FGC", "FGCT",
				"CGC", "CGCT", "GCT");
		String[] line = "0.0 4096.0 0.0 1024.0 20480.0 8192.0 40960.0 2048.0 30000.0 29000.0 3000.0 2900.0 12 0.150 1 0.050 - - 0.200".split(" ");
		Map<String, Double> series = JstatWatch.parse(header, line);
		assertThat(series).containsEntry("jstat_heap_bytes", (0 + 1024 + 8192 + 2048) * 1024.0).containsEntry("jstat_old_bytes", 2048 * 1024.0)
			.containsEntry("gc_pause_seconds", 0.2)
			.containsEntry("gc_pause_count", 13.0);
		assertThat(series).as("never under the Micrometer meters' names: other quantities").doesNotContainKeys("heap_used_bytes", "gc_live_bytes");
		assertThat(JstatWatch.parse(header, new String[] { "1", "2" })).as("a line that does not fit its header").isEmpty();
	}

	@Test
	void aJarWithoutTheLabsMetersIsSampledFromOutside() throws Exception {
		// A plain program, no Spring, no endpoint: it allocates for up to 20 s, then ends by itself.
		Path program = this.dir.resolve("Busy.java");
		Files.writeString(program, """
				public class Busy {
					public static void main(String[] args) throws Exception {
						long end = System.currentTimeMillis() + 20_000;
						java.util.List<byte[]> kept = new java.util.ArrayList<>();
						while (System.currentTimeMillis() < end) {
							kept.add(new byte[64 * 1024]);
							if (kept.size() > 200) {
								kept.clear();
							}
							Thread.sleep(1);
						}
					}
				}
				""");
		// Compiled and packed into an executable jar with the JDK's own tools: a jar with no Actuator, no endpoint.
		Path classes = Files.createDirectories(this.dir.resolve("classes"));
		Path jar = this.dir.resolve("busy.jar");
		assertThat(java.util.spi.ToolProvider.findFirst("javac").orElseThrow().run(System.out, System.err, "-d", classes.toString(),
				program.toString())).isZero();
		assertThat(java.util.spi.ToolProvider.findFirst("jar").orElseThrow().run(System.out, System.err, "--create", "--file", jar.toString(),
				"--main-class", "Busy", "-C", classes.toString(), ".")).isZero();
		Path javaHome = Path.of(System.getProperty("java.home"));
		Process busy = Children.register(new ProcessBuilder(javaHome.resolve("bin/java").toString(), "-Xmx64m", "-jar", jar.toString())
			.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start());
		try {
			Thread.sleep(1_500);
			Path metrics = this.dir.resolve("metrics.csv");
			try (Sampler sampler = new Sampler(metrics)) {
				sampler.watchProcess("service", busy.pid());
				sampler.watchStatus("service", busy.pid());
				sampler.watchJstat("service", javaHome, busy.pid(), null, this.dir.resolve("jstat-gc.txt"));
				Thread.sleep(4_500);
			}
			String csv = Files.readString(metrics);
			for (String series : List.of("proc_cpu_seconds", "rss_bytes", "native_threads", "jstat_heap_bytes", "gc_pause_seconds", "gc_pause_count")) {
				assertThat(csv).as(series + " sampled from outside").containsPattern(",service," + series + ",\\d");
			}
			double rss = last(csv, "rss_bytes");
			// The resident set as ps reads it, an independent look at the same process, within a factor of two of the sampler's.
			Process ps = new ProcessBuilder("ps", "-o", "rss=", "-p", Long.toString(busy.pid())).start();
			assertThat(ps.waitFor(10, TimeUnit.SECONDS)).isTrue();
			double psRss = Long.parseLong(new String(ps.getInputStream().readAllBytes()).trim()) * 1024.0;
			assertThat(rss).isBetween(psRss / 2, psRss * 2);
			assertThat(last(csv, "jstat_heap_bytes")).as("heap within -Xmx64m").isPositive().isLessThanOrEqualTo(64 * 1024 * 1024);
			assertThat(last(csv, "native_threads")).isGreaterThan(5);
			assertThat(Files.readString(this.dir.resolve("jstat-gc.txt"))).contains("S0C");
		}
		finally {
			Children.stop(busy);
		}
	}

	static double last(String csv, String series) {
		double value = Double.NaN;
		for (String line : csv.split("\n")) {
			String[] f = line.split(",");
			if (f.length == 4 && f[2].equals(series)) {
				value = Double.parseDouble(f[3]);
			}
		}
		return value;
	}

}
