package lab;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import lab.analyse.Analyser;
import lab.analyse.judge.LevelResult;
import lab.analyse.judge.Thresholds;
import lab.common.JitThreads;
import lab.common.ServiceProcess;
import lab.plan.Overrides;
import lab.plan.Remote;
import lab.plan.RunPlan;
import lab.plan.Scenario;
import lab.run.Runner;
import lab.run.RunnerTests;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lab's throughput against an independent closed-model client: one level of Gatling through the runner and
 * {@code wrk} (Debian's package) with as many connections, against the same warm app-webflux (started with the
 * t2-micro profile's flags, warmed by wrk until its JIT settles), must agree within 10%. 200 users on a 100 ms downstream ask 2,000 requests a second,
 * about two thirds of the service's core here: both clients should see nearly Little's law's ceiling, and a lab that
 * lost, double-counted or mistimed requests, or filed them in the wrong window, would not. (At saturation, 400 users,
 * this setup measured the lab 11-25% below wrk over 6 runs: the service spent more CPU per request under the lab,
 * whose sampler scrapes it each second and whose client sends more headers; a local {@code ./lab run} beside wrk
 * on the same flags agreed within 5%.) Up to three pairs, the first within 10% passing: the machine drifts between
 * passes, a lab that miscounts does in every pair. Pinned as the lab pins a local run: the service on CPU 0; the downstream and
 * the client (wrk, or this JVM and so the Gatling it starts) on CPU 1. Skipped, with the reason printed, where wrk
 * is not installed ({@code .ci/run} installs it) or the host has fewer than 2 cores.
 */
@Tag("slow") // not in ./lab test --fast: starts services or runs load
class CrossCheckTests {

	static final int USERS = 200;

	static final long DELAY_MS = 100;

	static final int SECONDS = 30;

	static final int WARM_ROUND_SECONDS = 10;

	static final int WARM_ROUNDS = 24;

	static final int ATTEMPTS = 3;

	@TempDir(cleanup = CleanupMode.ON_SUCCESS)
	Path out;

	@Test
	void gatlingThroughTheLabAndWrkAgreeWithinTenPercent() throws Exception {
		Path wrk = onPath("wrk");
		if (wrk == null) {
			System.out.println("CrossCheckTests: skipped: wrk is not installed (apt-get install wrk)");
		}
		Assumptions.assumeTrue(wrk != null, "wrk is not installed (apt-get install wrk)");
		int cores = Runtime.getRuntime().availableProcessors();
		if (cores < 2) {
			System.out.println("CrossCheckTests: skipped: needs 2 cores to keep the clients off the service's core, this host has " + cores);
		}
		Assumptions.assumeTrue(cores >= 2, "needs 2 cores");
		String all = "0-" + (cores - 1);
		try (ServiceProcess downstream = ServiceProcess.start("downstream-delay-service");
				ServiceProcess service = ServiceProcess.startWith("app-webflux", launch("app-webflux"), "--lab.downstream.base-url=" + downstream.url())) {
			pin(downstream.pid(), "1");
			String url = service.url() + "/address/" + DELAY_MS;
			// Warmed on every core, then pinned to CPU 0 for what is measured: the JIT's compiler threads no longer take
			// turns with the service on one core (20-32% of it for 100-110 s in the 10-s rounds below, when pinned), and
			// the lab's own warm-up after it still checks the JIT has settled on the one core.
			pin(service.pid(), all);
			warm(wrk, url, service.pid());
			pin(service.pid(), "0");
			// The lab's own warm-up, as a run has it: 10 s, longer in rounds while the JIT still compiles (Gatling's
			// requests are not wrk's: 8-9% below wrk's rate here with a fixed 10 s, in 2 runs).
			Scenario scenario = new Overrides(List.of("app-webflux"), List.of(USERS), DELAY_MS, SECONDS, 10, null, null, null, null, null, null, null, null, null, 60)
				.applyTo(Scenario.load("smoke"));
			// Up to ATTEMPTS pairs (the lab's level, then wrk's): the first pair within 10% passes. A lab that lost,
			// double-counted or mistimed requests is off in every pair; one pair fell 18.6% apart once in CI (the lab
			// 1,461 rps, wrk 1,794 just after it), where every earlier CI run agreed within 7%.
			List<String> pairs = new java.util.ArrayList<>();
			for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
				Path runOut = this.out.resolve("attempt-" + attempt);
				// The plan reads the host's cores first: pinned, this JVM would see one.
				RunPlan plan = RemoteModeTests.plan(scenario, runOut, Remote.parse(service.url(), downstream.url(), null, List.of("app-webflux")));
				pin(ProcessHandle.current().pid(), "1");
				try {
					new Runner(plan, System.out).run(List.of("test"));
				}
				finally {
					pin(ProcessHandle.current().pid(), all);
				}
				LevelResult lab = new Analyser(Thresholds.DEFAULT).analyse(runOut, List.of("app-webflux")).get(0);
				double independent = wrk(wrk, url, SECONDS, true);
				String pair = String.format(Locale.ROOT, "the lab (Gatling) %.0f rps, p99 %.0f ms, errors %d; wrk %.0f rps",
						lab.rps(), lab.p99AllMs(), lab.errors(), independent);
				pairs.add(pair);
				System.out.printf(Locale.ROOT, "CrossCheckTests: %d users, %d ms, pair %d: %s%n", USERS, DELAY_MS, attempt, pair);
				assertThat(lab.errors()).as(lab.reasons().toString()).isZero();
				if (Math.abs(lab.rps() - independent) <= 0.10 * independent) {
					return;
				}
			}
			throw new AssertionError("the lab and wrk more than 10% apart in each of " + ATTEMPTS + " pairs: " + pairs);
		}
	}

	/**
	 * wrk in rounds of {@link #WARM_ROUND_SECONDS} until the service's JIT settles: its compiler threads below 5% of a
	 * round and the round's rate within 5% of the one before. A fixed 30 s was once enough here; on another day the
	 * same one-CPU service compiled for about 100 s at 200 connections (327, 643, 1,019, 1,513, then 1,872-1,922
	 * requests a second in 20-s rounds, its compiler threads 20-28% of the core until then; 100-110 s in this test's 10-s
	 * rounds, 3 runs), and a level measured before that is a measurement of the JIT, not of the lab.
	 */
	static void warm(Path wrk, String url, long pid) throws Exception {
		JitThreads jit = new JitThreads(Path.of("/proc", Long.toString(pid), "task"));
		double lastRps = 0;
		double lastJit = jit.cpuSeconds();
		List<String> rounds = new java.util.ArrayList<>();
		for (int round = 1; round <= WARM_ROUNDS; round++) {
			double rps = wrk(wrk, url, WARM_ROUND_SECONDS, false);
			double jitSeconds = jit.cpuSeconds();
			double jitShare = (jitSeconds - lastJit) / WARM_ROUND_SECONDS;
			rounds.add(String.format(Locale.ROOT, "%.0f rps, JIT %.0f%%", rps, jitShare * 100));
			if (jitShare < 0.05 && Math.abs(rps - lastRps) <= 0.05 * lastRps) {
				System.out.println("CrossCheckTests: warm after " + round * WARM_ROUND_SECONDS + " s of wrk: " + rounds);
				return;
			}
			lastRps = rps;
			lastJit = jitSeconds;
		}
		throw new AssertionError("the service's JIT did not settle in " + WARM_ROUNDS * WARM_ROUND_SECONDS + " s of wrk: " + rounds);
	}

	/** The jar with the t2-micro profile's JVM flags, as the lab starts it: one processor, 1 GiB. */
	static List<String> launch(String module) {
		List<String> launch = new java.util.ArrayList<>(lab.plan.Profile.T2_MICRO.jvmFlags());
		launch.addAll(List.of("-jar", RunnerTests.root().resolve(module).resolve("target").resolve(module + ".jar").toString()));
		return launch;
	}

	/** Every thread of {@code pid} (and what it starts later) on {@code cpus}. */
	static void pin(long pid, String cpus) throws Exception {
		Process taskset = new ProcessBuilder("taskset", "-a", "-p", "-c", cpus, Long.toString(pid)).redirectErrorStream(true).start();
		String output = new String(taskset.getInputStream().readAllBytes());
		assertThat(taskset.waitFor(10, TimeUnit.SECONDS)).isTrue();
		assertThat(taskset.exitValue()).as(output).isZero();
	}

	/**
	 * Requests per second wrk (on CPU 1) reports for {@code seconds} at {@link #USERS} connections; {@code strict}: no
	 * error allowed. A warm-up round is not strict: it printed 4 answers not 2xx of 17,964 once here, while the JIT
	 * still compiled (printed, not judged: the measured seconds of both clients are).
	 */
	static double wrk(Path wrk, String url, int seconds, boolean strict) throws Exception {
		Process process = new ProcessBuilder("taskset", "-c", "1", wrk.toString(), "-t1", "-c" + USERS, "-d" + seconds + "s", "--timeout", "30s", url)
			.redirectErrorStream(true)
			.start();
		String output = new String(process.getInputStream().readAllBytes());
		assertThat(process.waitFor(seconds + 60, TimeUnit.SECONDS)).isTrue();
		Matcher rps = Pattern.compile("Requests/sec:\\s+([0-9.]+)").matcher(output);
		assertThat(rps.find()).as(output).isTrue();
		if (strict) {
			assertThat(output).as("wrk saw no errors").doesNotContain("Non-2xx").doesNotContain("Socket errors");
		}
		else if (output.contains("Non-2xx") || output.contains("Socket errors")) {
			System.out.println("CrossCheckTests: a warm-up round saw errors: " + output.replaceAll("\\s+", " "));
		}
		return Double.parseDouble(rps.group(1));
	}

	static Path onPath(String command) {
		for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
			Path candidate = Path.of(dir, command);
			if (Files.isExecutable(candidate)) {
				return candidate;
			}
		}
		return null;
	}

}
