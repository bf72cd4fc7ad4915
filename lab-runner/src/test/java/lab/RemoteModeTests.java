package lab;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import lab.analyse.Analyser;
import lab.analyse.judge.LevelResult;
import lab.analyse.judge.Thresholds;
import lab.analyse.measure.Measurement;
import lab.analyse.measure.Metric;
import lab.analyse.read.Latency;
import lab.analyse.read.RequestCounts;
import lab.common.ServiceProcess;
import lab.layout.LevelDir;
import lab.load.LoadFiles;
import lab.load.LoadWindow;
import lab.plan.Host;
import lab.plan.Overrides;
import lab.plan.Remote;
import lab.plan.RunPlan;
import lab.plan.Scenario;
import lab.run.Runner;
import lab.run.RunnerTests;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The remote mode on this machine: two injector processes sharing one level, and services started by the test
 * itself measured as if they ran elsewhere (over HTTP only, through --target and --downstream).
 */
@Tag("slow") // not in ./lab test --fast: starts services or runs load
class RemoteModeTests {

	/** Kept when a test fails: the run's logs are the evidence. */
	@TempDir(cleanup = CleanupMode.ON_SUCCESS)
	Path out;

	@AfterEach
	void noProcessIsLeftBehind() {
		assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).map(ProcessHandle::pid)).isEmpty();
	}

	static Scenario scenario(String variant, int users, int hold) {
		return new Overrides(List.of(variant), List.of(users), null, hold, 5, null, null, null, null, null, null).applyTo(Scenario.load("smoke"));
	}

	static RunPlan plan(Scenario scenario, Path out, Remote remote) {
		return RunPlan.of(scenario, RunnerTests.root(), out, Path.of(System.getProperty("java.home")), List.of(), Host.read(), remote);
	}

	@Test
	void twoInjectorsMakeOneMergedLevel() throws Exception {
		RunPlan plan = plan(scenario("app-webflux", 41, 6), this.out, Remote.parse(null, null, List.of("local", "local"), List.of("app-webflux")));
		new Runner(plan, System.out).run(List.of("test"));

		Path level = this.out.resolve("app-webflux/users-41");
		List<Path> parts = List.of(level.resolve("injector-1"), level.resolve("injector-2"));
		for (Path part : parts) {
			for (String file : List.of("load-window.csv", "latency.hlog", "requests.csv", "cpu.csv", "gatling.log", "gatling-command.txt")) {
				assertThat(part.resolve(file)).as(part + " " + file).isNotEmptyFile();
			}
			try (Stream<Path> html = Files.walk(part.resolve("gatling"))) {
				assertThat(html.filter(p -> p.getFileName().toString().equals("index.html"))).as(part + ": its own Gatling HTML").hasSize(1);
			}
			// Every request the injector sent is in its histogram log.
			Latency all = Latency.read(part.resolve(LevelDir.LATENCY), null);
			assertThat(all.ok().getTotalCount() + all.ko().getTotalCount()).isEqualTo(RunnerTests.gatlingCount(part.resolve("gatling.log")));
		}
		// The load was split: 21 + 20 users.
		assertThat(Files.readString(parts.get(0).resolve("gatling-command.txt"))).contains("-Dusers=21");
		assertThat(Files.readString(parts.get(1).resolve("gatling-command.txt"))).contains("-Dusers=20");

		LevelResult merged = new Analyser(Thresholds.DEFAULT).analyse(this.out, List.of("app-webflux")).get(0);
		// The window all of them were at full load: the latest steady start to the earliest end.
		LoadWindow first = LoadFiles.window(parts.get(0));
		LoadWindow second = LoadFiles.window(parts.get(1));
		LoadWindow window = new LoadWindow(Math.min(first.start(), second.start()), Math.max(first.steadyStart(), second.steadyStart()),
				Math.min(first.end(), second.end()));
		long sum = 0;
		Histogram histogram = new Histogram(3_600_000_000L, 3);
		List<Long> each = new ArrayList<>();
		for (Path part : parts) {
			RequestCounts counts = RequestCounts.read(part.resolve(LevelDir.REQUESTS), window);
			Latency latency = Latency.read(part.resolve(LevelDir.LATENCY), window);
			assertThat(counts.total()).as(part + " loaded the service").isPositive();
			sum += counts.total();
			each.add(counts.total());
			histogram.add(latency.ok());
		}
		assertThat(merged.requests()).as("merged requests = the sum of both injectors'").isEqualTo(sum);
		assertThat(merged.injectors()).extracting(Measurement.InjectorShare::requests).containsExactlyElementsOf(each);
		assertThat(merged.p99OkMs()).as("p99 from the merged histogram").isEqualTo(histogram.getValueAtPercentile(99) / 1000.0);
		assertThat(merged.value(lab.analyse.judge.Figures.P50_OK_MS)).isEqualTo(histogram.getValueAtPercentile(50) / 1000.0);
		assertThat(merged.injectorCpuPercent()).as("both local injectors sampled").isPositive();
		assertThat(merged.verdict()).as(merged.reasons().toString()).isNotEqualTo(LevelResult.Verdict.FAILED);
		// Gatling's one report over both injectors' records first, then each one's own; its count is the level's.
		assertThat(merged.gatlingReports()).hasSize(3);
		assertThat(merged.gatlingReports().get(0)).isEqualTo("app-webflux/users-41/gatling/all-injectors/index.html");
		long everyRequest = 0;
		for (Path part : parts) {
			everyRequest += RunnerTests.gatlingCount(part.resolve("gatling.log"));
		}
		assertThat(everyRequest).as("both injectors' requests").isPositive();
		assertThat(RunnerTests.gatlingCount(level.resolve(LevelDir.GATLING_MERGE_LOG))).as("the merged report's requests").isEqualTo(everyRequest);
		assertThat(Files.readString(this.out.resolve("report.html"))).contains("injector-1 ").contains("injector-2 ");
	}

	@Test
	void measuresAServiceItDidNotStart() throws Exception {
		try (ServiceProcess downstream = ServiceProcess.start("downstream-delay-service");
				ServiceProcess service = ServiceProcess.start("app-tomcat-loom", "--lab.downstream.base-url=" + downstream.url())) {
			Remote remote = Remote.parse(service.url(), downstream.url(), null, List.of("app-tomcat-loom"));
			new Runner(plan(scenario("app-tomcat-loom", 20, 3), this.out, remote), System.out).run(List.of("test"));

			assertThat(service.pid()).as("the runner leaves a service it did not start running")
				.matches(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
			Path level = this.out.resolve("app-tomcat-loom/users-20");
			String metrics = Files.readString(level.resolve("metrics.csv"));
			assertThat(metrics).as("no /proc sampling of a remote service").doesNotContain(",service,proc_cpu_seconds,");
			assertThat(metrics).contains(",service,cpu_user_seconds,").contains(",downstream,overhead_le_");
			LevelResult result = new Analyser(Thresholds.DEFAULT).analyse(this.out, List.of("app-tomcat-loom")).get(0);
			assertThat(result.rps()).isPositive();
			assertThat(result.serviceCpuPercent()).as("CPU from the service's own scraped counters").isPositive();
			assertThat(result.metric(Metric.PEAK_RSS_MIB)).isPositive();
			assertThat(result.value(lab.analyse.judge.Figures.DOWNSTREAM_OWN_P99_OVERHEAD_MS)).as("remote downstream sampled").isNotNaN();
			assertThat(result.downstreamP99LateMs()).as("remote downstream probed").isNotNaN();
			assertThat(result.verdict()).as(result.reasons().toString()).isNotEqualTo(LevelResult.Verdict.FAILED);
			assertThat(Files.readString(this.out.resolve("manifest.json"))).contains(service.url());
		}
	}

}
