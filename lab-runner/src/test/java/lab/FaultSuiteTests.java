package lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import lab.run.Runner;
import lab.run.RunnerTests;
import lab.plan.Host;
import lab.plan.RunPlan;
import lab.plan.Scenario;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fault suite: each fault on a short run (seconds, 30-50 users on a 100 ms downstream), asserting the verdict
 * and reason the report gives in summary.json and that no child process is left (by PID). Each fault strikes the
 * second level. A fault's verdict does not hang on warmth (a failure is the service's warm or not; a harness fault is
 * INVALID either way), so every run warms up a fixed 10 s; the variant measured after a fault must answer every
 * request, and may come out INVALID only as not warm.
 */
@Tag("slow") // not in ./lab test --fast: starts services or runs load
class FaultSuiteTests {

	/** Kept when a test fails: the run's logs are the evidence. */
	@TempDir(cleanup = CleanupMode.ON_SUCCESS)
	Path out;

	/** The scenario files the tests write: beside the results, not in them (the runner owns that directory). */
	@TempDir(cleanup = CleanupMode.ON_SUCCESS)
	Path scenarios;

	static final JsonMapper json = JsonMapper.builder().build();

	@AfterEach
	void noProcessIsLeftBehind() {
		assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).map(ProcessHandle::pid)).isEmpty();
	}

	/** Two short levels after a fixed 10 s warm-up; the fault is injected into users-50. */
	Scenario scenario(String... variants) throws IOException {
		return scenario(List.of(30, 50), variants);
	}

	/** Short levels after a warm-up of 10 s. */
	Scenario scenario(List<Integer> users, String... variants) throws IOException {
		Path file = this.scenarios.resolve("fault.yml");
		Files.writeString(file, """
				name: fault
				description: the fault suite's short levels
				model: closed
				variants: [%s]
				users: %s
				delayMs: 100
				rampSeconds: 3
				holdSeconds: 10
				warmupSeconds: 10
				warmupUsers: 50
				warmupMaxSeconds: 10
				requestTimeoutMs: 3000
				""".formatted(String.join(", ", variants), users));
		return Scenario.load(file.toString());
	}

	Runner runner(Scenario scenario) {
		RunPlan plan = RunPlan.of(scenario, RunnerTests.root(), this.out, Path.of(System.getProperty("java.home")), List.of(), Host.read());
		return new Runner(plan, System.out);
	}

	JsonNode result(String variant, int users) throws IOException {
		return result(this.out, variant, users);
	}

	static JsonNode result(Path results, String variant, int users) throws IOException {
		for (JsonNode row : json.readTree(results.resolve("summary.json").toFile()).path("results")) {
			if (row.path("variant").asString().equals(variant) && row.path("users").asInt() == users) {
				return row;
			}
		}
		throw new AssertionError(variant + " at " + users + " users is not in summary.json");
	}

	static String reasons(JsonNode row) {
		List<String> reasons = new ArrayList<>();
		row.path("reasons").forEach(reason -> reasons.add(reason.asString()));
		return String.join("; ", reasons);
	}

	/** Waits until the level's sampling began, then {@code seconds} more. */
	static void awaitLoad(Path level, int seconds) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
		while (!Files.exists(level.resolve("metrics.csv")) && System.nanoTime() < deadline) {
			Thread.sleep(200);
		}
		Thread.sleep(seconds * 1000L);
	}

	static long pid(Path serviceDir) throws IOException {
		return pid(serviceDir, "pid");
	}

	static long pid(Path dir, String file) throws IOException {
		return Long.parseLong(Files.readString(dir.resolve(file)).trim());
	}

	/** A process as ps shows it: PID, state (Z: exited, not yet reaped) and command line. */
	static String describe(ProcessHandle process) {
		String state;
		try {
			String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
			state = stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
		}
		catch (IOException | RuntimeException ex) {
			state = "?";
		}
		return process.pid() + " " + state + " " + process.info().commandLine().orElse("(command unknown)");
	}

	static void signal(String signal, long pid) throws IOException, InterruptedException {
		new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start().waitFor(5, TimeUnit.SECONDS);
	}

	@Test
	void aDownstreamKilledMidLevelIsTheHarnessesFaultAndTheNextVariantIsMeasured() throws Exception {
		Thread fault = Thread.ofVirtual().start(() -> {
			try {
				awaitLoad(this.out.resolve("app-webflux/users-50"), 6);
				ProcessHandle.of(pid(this.out.resolve("downstream-delay-service"))).ifPresent(ProcessHandle::destroyForcibly);
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		});
		runner(scenario(List.of(50), "app-webflux", "app-tomcat-platform")).run(List.of("test"));
		fault.join(5_000);

		JsonNode killed = result("app-webflux", 50);
		assertThat(killed.path("verdict").asString()).as(reasons(killed)).isEqualTo("INVALID");
		assertThat(reasons(killed)).contains("the downstream died (exit code 137)");
		JsonNode next = result("app-tomcat-platform", 50);
		// Measured against the restarted downstream: every request answered. A JIT still compiling after the fixed 10 s
		// warm-up may leave it INVALID "not warm", which is the service's state, not the harness's fault.
		assertThat(next.path("errorPercent").asDouble()).as(reasons(next)).isZero();
		assertThat(next.path("requests").asLong()).as(reasons(next)).isPositive();
		assertThat(reasons(next)).doesNotContain("the downstream died");
		assertThat(next.path("verdict").asString()).as(reasons(next)).isIn("OK", "INVALID");
		if (next.path("verdict").asString().equals("INVALID")) {
			assertThat(reasons(next)).as("INVALID only for its warm-up").contains("not warm");
		}
	}

	/**
	 * Two faults on one service's two levels (one start, one warm-up for both): its injector killed during the first
	 * (INVALID, the harness's fault: the run goes on to the next level), the service stopped for 5 s during the second
	 * (FAILED: stalled).
	 */
	@Test
	void anInjectorKilledMidLevelIsInvalidAndAServiceStoppedForLongerThanTwiceTheDelayStalled() throws Exception {
		Thread fault = Thread.ofVirtual().start(() -> {
			try {
				awaitLoad(this.out.resolve("app-webflux/users-30"), 6);
				ProcessHandle.of(pid(this.out.resolve("app-webflux/users-30"), "injector.pid")).ifPresent(ProcessHandle::destroyForcibly);
				awaitLoad(this.out.resolve("app-webflux/users-50"), 6);
				long pid = pid(this.out.resolve("app-webflux"));
				signal("STOP", pid);
				Thread.sleep(5_000);
				signal("CONT", pid);
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		});
		runner(scenario(List.of(30, 50), "app-webflux")).run(List.of("test"));
		fault.join(5_000);

		JsonNode level = result("app-webflux", 30);
		assertThat(level.path("verdict").asString()).as(reasons(level)).isEqualTo("INVALID");
		assertThat(reasons(level)).contains("the injector exited with code 137").contains("no load window");

		JsonNode stalled = result("app-webflux", 50);
		assertThat(stalled.path("verdict").asString()).as(reasons(stalled)).isEqualTo("FAILED");
		assertThat(reasons(stalled)).containsPattern("stalled [4-6] s at \\+\\d+ s: no response while users waited");
		assertThat(stalled.path("longestStallSeconds").asDouble()).isBetween(4.0, 6.0);
		// The stall shows in the level's timeline: seconds in which nothing was answered.
		assertThat(Files.readString(this.out.resolve("app-webflux/users-50/timeline.html"))).contains("<img alt=\"Requests per second\"");
		assertThat(Files.readString(this.out.resolve("report.html"))).contains("href=\"app-webflux/users-50/timeline.html\"");
	}

	@Test
	void requestsLeftHangingAreCountedAsErrorsNotAsNothing() throws Exception {
		// The downstream never answers 1 request in 10: the proxy holds them, the injector times them out at 3 s. The
		// first level already fails, so the second is not run.
		runner(scenario("app-webflux")).withDownstreamArguments(List.of("--lab.fault.hang-every=10")).run(List.of("test"));

		JsonNode level = result("app-webflux", 30);
		long sent = level.path("requests").asLong();
		long hung = level.path("timeouts").asLong() + level.path("unanswered").asLong();
		assertThat(hung).as("timed out or unanswered of " + sent).isBetween(sent / 20, sent * 3 / 20);
		assertThat(level.path("errorPercent").asDouble()).isBetween(5.0, 15.0);
		assertThat(level.path("verdict").asString()).as(reasons(level)).isEqualTo("FAILED");
		assertThat(reasons(level)).containsPattern("errors \\d+\\.\\d% > 5% \\([0-9,]+ timed out, [0-9,]+ unanswered\\)");
		assertThat(level.path("p99AllMs").asDouble()).as("the hung requests count at their 3 s timeout").isGreaterThanOrEqualTo(2_900);
	}

	@Test
	void ctrlCMarksTheLevelInterruptedRendersTheReportAndExits130() throws Exception {
		Path scenario = this.scenarios.resolve("fault.yml");
		scenario("app-webflux");
		Path results = this.out.resolve("run");
		// env --default-signal: a test JVM started in the background may have inherited SIGINT ignored.
		List<String> command = List.of("env", "--default-signal=INT", Path.of(System.getProperty("java.home"), "bin/java").toString(),
				"-Dlab.root=" + RunnerTests.root(), "-cp", System.getProperty("java.class.path"), "lab.Main", "run", "--scenario",
				scenario.toString(), "--out", results.toString());
		Process runner = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(this.out.resolve("runner.log").toFile()).start();
		try {
			awaitLoad(results.resolve("app-webflux/users-30"), 4);
			List<ProcessHandle> children = runner.descendants().toList();
			assertThat(children).as("the runner started the services and the injector").isNotEmpty();
			signal("INT", runner.pid());
			assertThat(runner.waitFor(60, TimeUnit.SECONDS)).as("the runner exits after Ctrl-C").isTrue();
			assertThat(runner.exitValue()).as(Files.readString(this.out.resolve("runner.log"))).isEqualTo(130);
			assertThat(children.stream().filter(ProcessHandle::isAlive).map(FaultSuiteTests::describe)).as("every child stopped").isEmpty();
		}
		finally {
			runner.descendants().forEach(ProcessHandle::destroyForcibly);
			runner.destroyForcibly().waitFor();
		}
		assertThat(results.resolve("report.html")).isNotEmptyFile();
		JsonNode level = null;
		for (JsonNode row : json.readTree(results.resolve("summary.json").toFile()).path("results")) {
			level = row;
		}
		assertThat(level).isNotNull();
		assertThat(level.path("verdict").asString()).isEqualTo("INTERRUPTED");
		assertThat(reasons(level)).contains("interrupted by the person running the lab");
	}


	@Test
	void aRunnerKilledOutrightLeavesNoProcessBehindAndItsResultsRenderWithTheLevelInterrupted() throws Exception {
		Path scenario = this.scenarios.resolve("fault.yml");
		scenario("app-webflux");
		Path results = this.out.resolve("run");
		List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin/java").toString(), "-Dlab.root=" + RunnerTests.root(),
				"-cp", System.getProperty("java.class.path"), "lab.Main", "run", "--scenario", scenario.toString(), "--out", results.toString());
		Process runner = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(this.out.resolve("runner.log").toFile()).start();
		List<ProcessHandle> children;
		try {
			awaitLoad(results.resolve("app-webflux/users-30"), 4);
			children = runner.descendants().toList();
			assertThat(children).as("the runner started the downstream, the service, the injector and its watchdog").hasSizeGreaterThanOrEqualTo(4);
			System.out.println("SIGKILL to the runner " + runner.pid() + "; its descendants: " + children.stream().map(p -> p.pid() + " "
					+ p.info().command().map(c -> Path.of(c).getFileName().toString()).orElse("?")).toList());
			long killedAt = System.nanoTime();
			signal("KILL", runner.pid());
			runner.waitFor(10, TimeUnit.SECONDS);
			long deadline = killedAt + TimeUnit.SECONDS.toNanos(30);
			while (children.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
				Thread.sleep(100);
			}
			System.out.printf("every descendant gone %.1f s after the SIGKILL; still alive: %s%n", (System.nanoTime() - killedAt) / 1e9,
					children.stream().filter(ProcessHandle::isAlive).map(ProcessHandle::pid).toList());
			assertThat(children).as("every process the runner started ends by itself").noneMatch(ProcessHandle::isAlive);
		}
		finally {
			runner.descendants().forEach(ProcessHandle::destroyForcibly);
			runner.destroyForcibly().waitFor();
		}
		assertThat(Files.readString(results.resolve("watchdog.log"))).contains("the runner (" + runner.pid() + ") is gone");
		assertThat(Main.execute("report", results.toString())).as("the results written so far re-render").isZero();
		JsonNode level = result(results, "app-webflux", 30);
		assertThat(level.path("verdict").asString()).isEqualTo("INTERRUPTED");
		assertThat(reasons(level)).contains("the runner ended during this level");
		assertThat(results.resolve("report.html")).isNotEmptyFile();
	}

}
