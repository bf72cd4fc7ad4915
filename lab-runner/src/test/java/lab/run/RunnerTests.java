package lab.run;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import lab.analyse.Analyser;
import lab.analyse.judge.LevelResult;
import lab.analyse.judge.Thresholds;
import lab.analyse.measure.Measurement;
import lab.analyse.measure.Metric;
import lab.analyse.read.Latency;
import lab.analyse.read.LevelFacts;
import lab.layout.LevelDir;
import lab.plan.Host;
import lab.plan.Overrides;
import lab.plan.RunPlan;
import lab.plan.Scenario;
import lab.plan.Variant;
import lab.sample.CpuProfile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/** Whole runs against the real services built by this reactor: the smoke scenario, and a service killed mid-level. */
@Tag("slow") // not in ./lab test --fast: starts services or runs load
public class RunnerTests {

	/** Kept when a test fails: the run's logs and dumps are the evidence. */
	@TempDir(cleanup = CleanupMode.ON_SUCCESS)
	Path out;

	public static Path root() {
		return Path.of(System.getProperty("lab.root", "..")).toAbsolutePath().normalize();
	}

	public static RunPlan plan(Scenario scenario, Path out) {
		return RunPlan.of(scenario, root(), out, Path.of(System.getProperty("java.home")), List.of(), Host.read());
	}

	@AfterEach
	void noProcessIsLeftBehind() {
		assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).map(ProcessHandle::pid)).isEmpty();
	}

	/** The variant the smoke run's service is killed in, mid-level: not the last, so the run has a next variant to go on with. */
	static final String KILLED = "app-tomcat-platform";

	@Test
	void smokeRunsEveryVariantEndToEndAndGoesOnPastAServiceKilledMidLevel() throws Exception {
		// The pipeline, not the verdicts: a fixed 5 s warm-up (the bundled one runs until the JIT settles, minutes here)
		// and a 3 s hold.
		Scenario smoke = new Overrides(null, null, null, 3, 5, null, null, null, null, null, null).applyTo(Scenario.load("smoke"));
		assertThat(Variant.names()).contains(KILLED).last().isNotEqualTo(KILLED);
		Thread killer = Thread.ofVirtual().start(() -> killWhenLoaded(this.out.resolve(KILLED)));
		new Runner(plan(smoke, this.out), System.out).run(List.of("./lab", "run", "--scenario", "smoke", "--warmup-seconds", "5", "--hold", "3"));
		killer.join(5_000);
		serviceKilledMidLevelIsRecordedFailedAndTheRunWentOn();

		JsonNode manifest = JsonMapper.builder().build().readTree(this.out.resolve("manifest.json").toFile());
		for (String key : List.of("startedAt", "host", "java", "versions", "gitCommit", "profile", "cpus", "jvmFlags", "scenario", "levels",
				"thresholds", "pinnedThreshold", "tunings")) {
			assertThat(manifest.has(key)).as("manifest has " + key).isTrue();
		}
		assertThat(manifest.path("jvmFlags").path("service").toString()).contains("-XX:ActiveProcessorCount=1");
		assertThat(manifest.path("java").path("version").asString()).contains("version");
		for (String variant : Variant.names().stream().filter(v -> !v.equals(KILLED)).toList()) {
			Path level = this.out.resolve(variant).resolve("users-20");
			for (String file : List.of("level.json", "load-window.csv", "load-plan.csv", "latency.hlog", "requests.csv", "metrics.csv",
					"gatling.log", "heap-steady.json", "heap-steady.txt")) {
				assertThat(level.resolve(file)).as(variant + " " + file).isNotEmptyFile();
			}
			Latency all = Latency.read(level.resolve("latency.hlog"), null);
			long recorded = all.ok().getTotalCount() + all.ko().getTotalCount();
			assertThat(recorded).as(variant + " requests").isPositive();
			assertThat(recorded).as(variant + ": histogram count equals Gatling's").isEqualTo(gatlingCount(level.resolve("gatling.log")));
			assertThat(all.ok().getMinValue()).as(variant + ": no response faster than the 100 ms delay (µs)").isGreaterThanOrEqualTo(100_000);
			try (Stream<Path> html = Files.walk(level.resolve("gatling"))) {
				assertThat(html.filter(p -> p.getFileName().toString().equals("index.html"))).as(variant + " Gatling HTML").hasSize(1);
			}
			LevelResult result = new Analyser(Thresholds.DEFAULT).analyseOne(Measurement.of(level, this.out));
			assertThat(result.rps()).as(variant + " rps").isPositive();
			assertThat(result.metric(Metric.PEAK_RSS_MIB)).as(variant + " RSS sampled").isPositive();
			assertThat(result.verdict()).as(variant + " " + result.reasons()).isNotEqualTo(LevelResult.Verdict.FAILED);
			// Connections counted by the server itself (Tomcat's gauge, the Netty variants' own), and the context
			// switches walked by the runner, not by the measured process.
			assertThat(result.metric(Metric.PEAK_SERVER_CONNECTIONS)).as(variant + " connections").isGreaterThanOrEqualTo(20);
			assertThat(Files.readString(this.out.resolve(variant).resolve("command.txt"))).contains("--lab.process-metrics.thread-walk=false");
			assertThat(Files.readString(level.resolve("metrics.csv"))).as(variant).contains(",service,ctx_voluntary,");
			assertThat(result.metric(Metric.CONTEXT_SWITCHES_PER_SECOND)).as(variant + " context switches").isPositive();
			assertThat(result.headroom().injectorMsPerRequest()).as(variant + " injector cost").isPositive();
			assertThat(result.headroom().validUpToRps()).as(variant + " harness headroom").isPositive();
		}
		assertThat(this.out.resolve("report.html")).isNotEmptyFile();
		assertThat(this.out.resolve("summary.json")).isNotEmptyFile();
	}

	@Test
	void anInterleavedSearchKeepsEveryEntryAliveAndProbesThemRoundByRound() throws Exception {
		// WebFlux and its A/A twin, bracket rounds from 50 users up to 100: the pipeline of the interleaved search with real
		// services, not its capacities.
		Path file = this.out.resolve("tiny-search.yml");
		Files.writeString(file, String.join("\n", "name: tiny-search", "model: closed", "variants: [app-webflux]", "users: [50]", "searchMax: 100",
				"searchResolutionPercent: 100", "rounds: 1", "aa: true", "delayMs: 100", "rampSeconds: 1", "holdSeconds: 3", "warmupSeconds: 10",
				"warmupMaxSeconds: 10", "warmupUsers: 50", ""));
		Path results = this.out.resolve("run");
		new Runner(plan(Scenario.load(file.toString()), results), System.out).run(List.of("./lab", "run", "--scenario", file.toString()));

		JsonNode search = JsonMapper.builder().build().readTree(results.resolve("capacity-search.json").toFile());
		assertThat(search.path("entries").toString()).isEqualTo("[\"app-webflux\",\"app-webflux.aa\"]");
		assertThat(search.path("twin").asString()).isEqualTo("app-webflux.aa");
		// Whatever the verdicts (a 10 s warm-up may leave the first probes not warm, to be run again: then a round holds only
		// the entry whose bracket is still open), the first round probed both entries, no round probed an entry twice, each
		// probe is a level of its own, and the CPU reference was timed around every round.
		assertThat(search.path("rounds").size()).isGreaterThanOrEqualTo(2);
		assertThat(search.path("rounds").get(0).path("order")).as("the first round probes both entries").hasSize(2);
		int probed = 0;
		for (JsonNode round : search.path("rounds")) {
			List<String> order = new java.util.ArrayList<>();
			round.path("order").forEach(entry -> order.add(entry.asString()));
			assertThat(order).as("a round probes an entry at most once").doesNotHaveDuplicates().isNotEmpty();
			probed += order.size();
			assertThat(round.path("referenceBeforeMs").asDouble()).as("the CPU reference was timed on the service's core").isPositive();
			assertThat(round.path("referenceAfterMs").asDouble()).isPositive();
		}
		assertThat(search.path("probes")).hasSize(probed);
		for (String entry : List.of("app-webflux", "app-webflux.aa")) {
			long probes = java.util.stream.StreamSupport.stream(search.path("probes").spliterator(), false)
				.filter(p -> p.path("entry").asString().equals(entry)).count();
			assertThat(probes).as(entry + ": its bracket from 50 to 100 users took two probes at least").isGreaterThanOrEqualTo(2);
		}
		for (JsonNode probe : search.path("probes")) {
			assertThat(results.resolve(probe.path("level").asString()).resolve("level.json")).isNotEmptyFile();
			assertThat(probe.path("level").asString()).endsWith("-round" + probe.path("round").asInt());
		}
		// Both JVMs lived through the whole search: no entry needed a fresh one.
		for (String entry : List.of("app-webflux", "app-webflux.aa")) {
			assertThat(results.resolve(entry).resolve("restart-2")).doesNotExist();
			assertThat(results.resolve(entry).resolve("capacity.json")).isNotEmptyFile();
		}
		assertThat(Files.readString(results.resolve("summary.md"))).contains("## Capacity, searched round by round").contains("app-webflux.aa");
	}

	@Test
	void progressGivesThePositionInTheRunAndTheTimeLeftFromThePlansEstimate() {
		Runner runner = new Runner(plan(Scenario.load("smoke"), this.out), System.out);
		// smoke: every variant x 1 level; a level 1 + 6 + 0 + 6 = 13 s, a service start 15 + 30 + 6 = 51 s (the warm-up's
		// minimum): with five variants 5 x 13 + 5 x 51 = 320 s left, "about 5 min".
		int variants = Variant.ALL.size();
		long minutes = Math.round(variants * (13 + 51) / 60.0);
		assertThat(runner.position("app-webflux users-20"))
			.isEqualTo("lab: level 1 of " + variants + " (app-webflux users-20), about " + minutes + " min left");
	}

	@Test
	void repeatsStartAFreshServiceEachInARotatedOrderUnderTheTuningNamedAndJfrRecordsEachLevel(@TempDir Path tools) throws Exception {
		Scenario scenario = new Overrides(List.of("app-webflux", "app-tomcat-loom"), List.of(20), null, 3, 5, null, 2, List.of("tuned"), null, null, null)
			.applyTo(Scenario.load("smoke"));
		// async-profiler ships for Linux x64 and arm64: elsewhere --profile-cpu refuses to start, and this part is skipped.
		Path profiler = CpuProfile.library(tools).orElse(null);
		if (profiler == null) {
			System.out.println("SKIPPED the --profile-cpu checks: async-profiler has no library for " + System.getProperty("os.name") + " " + System.getProperty("os.arch"));
		}
		new Runner(plan(scenario, this.out), System.out).withJfr(true).withCpuProfile(profiler).run(List.of("test"));

		Path webflux = this.out.resolve("app-webflux.tuned");
		Path tomcat = this.out.resolve("app-tomcat-loom.tuned");
		List<Long> pids = new java.util.ArrayList<>();
		for (Path variant : List.of(webflux, tomcat)) {
			for (String repeat : List.of("repeat-1", "repeat-2")) {
				Path dir = variant.resolve(repeat);
				pids.add(Long.parseLong(Files.readString(dir.resolve("pid")).trim()));
				assertThat(LevelFacts.read(dir.resolve("users-20-r" + repeat.substring(7)))).isNotNull();
				// Each repeat has its own warm-up, and its rest-and-load heap snapshots.
				assertThat(dir.resolve("warmup/heap-idle.json")).isNotEmptyFile();
				assertThat(dir.resolve("warmup/metrics.csv")).isNotEmptyFile();
			}
		}
		assertThat(pids).as("a fresh JVM per repeat").doesNotHaveDuplicates();
		// Repeat 1 runs app-webflux first, repeat 2 app-tomcat-loom first.
		assertThat(started(webflux.resolve("repeat-1"))).isLessThan(started(tomcat.resolve("repeat-1")));
		assertThat(started(tomcat.resolve("repeat-2"))).isLessThan(started(webflux.resolve("repeat-2")));
		// The tuning reached the service: its properties read back from it, its flags on its command line.
		JsonNode applied = JsonMapper.builder().build().readTree(tomcat.resolve("repeat-1/tuning-applied.json").toFile());
		assertThat(applied.path("lab.tomcat.socket-buffer-size").asString()).isEqualTo("512B");
		assertThat(applied.path("lab.downstream.buffer-size").asString()).isEqualTo("256B");
		assertThat(Files.readString(webflux.resolve("repeat-1/command.txt"))).contains("-XX:MaxRAMPercentage=68");
		// ... and reached the client: the settings read back from the client objects the services built.
		JsonNode blocking = JsonMapper.builder().build().readTree(tomcat.resolve("repeat-1/downstream-client.json").toFile());
		assertThat(blocking.path("bufferSize").asInt()).as(blocking.toString()).isEqualTo(256);
		assertThat(blocking.path("stages").toString()).as(blocking.toString()).isEqualTo("[\"ProtocolExec\",\"ConnectExec\",\"MainClientExec\"]");
		assertThat(blocking.path("maxConnections").asInt()).as(blocking.toString()).isEqualTo(20000);
		JsonNode reactive = JsonMapper.builder().build().readTree(webflux.resolve("repeat-1/downstream-client.json").toFile());
		assertThat(reactive.path("readTimeout").asString()).as(reactive.toString()).isEqualTo(blocking.path("readTimeout").asString());
		assertThat(reactive.path("maxConnections").asInt()).as(reactive.toString()).isEqualTo(20000);
		// tuned's JVM flag for the Netty variants reached Reactor Netty: the server accepts on a thread of its own.
		assertThat(Files.readString(webflux.resolve("repeat-1/command.txt"))).contains("-Dreactor.netty.ioSelectCount=1");
		assertThat(reactive.path("netty").path("accept").asString()).as(reactive.toString()).isEqualTo("its own thread");
		assertThat(Files.readString(this.out.resolve("report.html"))).contains("downstream client: app-tomcat-loom.tuned/repeat-1")
			.contains("buffer bytes 256").contains("stages ProtocolExec → ConnectExec → MainClientExec");
		JsonNode summary = JsonMapper.builder().build().readTree(this.out.resolve("summary.json").toFile());
		List<String> variants = new java.util.ArrayList<>();
		summary.path("results").forEach(row -> variants.add(row.path("variant").asString() + " x" + row.path("repeats").asInt()));
		assertThat(variants).containsExactlyInAnyOrder("app-webflux.tuned x2", "app-tomcat-loom.tuned x2");
		assertThat(summary.path("manifest").path("tunings").path("tuned").path("variants").has("app-tomcat-loom.tuned")).isTrue();
		assertThat(summary.path("memory")).hasSize(2);
		// --jfr: every level's steady window recorded, summarised, its CPU stacks collapsed, all linked from its timeline.
		Path level = webflux.resolve("repeat-1/users-20-r1");
		assertThat(level.resolve("steady.jfr")).isNotEmptyFile();
		assertThat(Files.readString(level.resolve("jfr-summary.txt"))).contains("==== jfr view hot-methods ====")
			.contains("==== jfr view allocation-by-site ====").contains("==== jfr view pinned-threads ====");
		assertThat(Files.readAllLines(level.resolve("cpu-stacks.collapsed"))).isNotEmpty()
			.allMatch(line -> line.matches(".+;.+ \\d+"));
		assertThat(Files.readString(level.resolve("cpu-flame.svg"))).startsWith("<svg").contains("<title>all (");
		assertThat(Files.readString(level.resolve("timeline.html"))).contains("<a href=\"jfr-summary.txt\">").contains("<a href=\"cpu-flame.svg\">");
		if (profiler != null) {
			// --profile-cpu: async-profiler's samples of the same window, JVM and native frames included, on both models.
			for (Path profiled : List.of(level, tomcat.resolve("repeat-2/users-20-r2"))) {
				assertThat(Files.readString(profiled.resolve(LevelDir.PROFILE_START_LOG))).as(profiled.toString()).contains("return code: 0");
				assertThat(Files.readAllLines(profiled.resolve(LevelDir.PROFILE_STACKS))).as(profiled.toString()).isNotEmpty()
					.allMatch(line -> line.matches(".+ \\d+"));
				assertThat(Files.readString(profiled.resolve(LevelDir.PROFILE_FLAME))).startsWith("<svg").contains("async-profiler, event=");
				assertThat(Files.readString(profiled.resolve("timeline.html"))).contains("<a href=\"cpu-profile.svg\">");
			}
		}
	}

	private static java.nio.file.attribute.FileTime started(Path serviceDir) throws java.io.IOException {
		return Files.getLastModifiedTime(serviceDir.resolve("pid"));
	}

	/** Gatling's own total from its console summary: "> request count | 1,073 | ...". */
	public static long gatlingCount(Path log) throws Exception {
		Matcher matcher = Pattern.compile(">\\s*request count\\s*\\|\\s*([\\d,]+)").matcher(Files.readString(log));
		assertThat(matcher.find()).as("Gatling printed its request count in " + log).isTrue();
		return Long.parseLong(matcher.group(1).replace(",", ""));
	}

	/** The smoke run's killed service: its level FAILED with the exit code and its log as evidence, and the next variant measured. */
	private void serviceKilledMidLevelIsRecordedFailedAndTheRunWentOn() throws Exception {
		Path level = this.out.resolve(KILLED + "/users-20");
		LevelFacts facts = LevelFacts.read(level);
		assertThat(facts.serviceAlive()).isFalse();
		LevelResult killed = new Analyser(Thresholds.DEFAULT).analyseOne(Measurement.of(level, this.out));
		assertThat(killed.verdict()).isEqualTo(LevelResult.Verdict.FAILED);
		assertThat(killed.reasons()).anyMatch(reason -> reason.startsWith("the service died (exit code 137)"));
		assertThat(killed.evidence()).contains(KILLED + "/service.log");
		// The run went on with the next variant.
		List<String> names = Variant.names();
		String next = names.get(names.indexOf(KILLED) + 1);
		assertThat(LevelFacts.read(this.out.resolve(next + "/users-20")).serviceAlive()).isTrue();
		assertThat(Files.readString(this.out.resolve("summary.md"))).contains(KILLED + " at 20: FAILED the service died");
	}

	/** Waits until the level's sampling has begun, lets the load run 3 s, then SIGKILLs the service by its PID. */
	private static void killWhenLoaded(Path variantDir) {
		try {
			long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
			while (!Files.exists(variantDir.resolve("users-20/metrics.csv")) && System.nanoTime() < deadline) {
				Thread.sleep(200);
			}
			Thread.sleep(3_000);
			long pid = Long.parseLong(Files.readString(variantDir.resolve("pid")).trim());
			ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
