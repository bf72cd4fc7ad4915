package lab;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import lab.run.RunnerTests;
import lab.launch.Postgres;
import lab.layout.LevelDir;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ./lab run --service} on the proof service (fixtures/pg-orders: Spring MVC, JDBC, HikariCP, PostgreSQL, none of
 * the lab's code) against a real PostgreSQL the lab starts and removes: two arms, virtual threads on and off, on a pool
 * of two connections that eight users hold full.
 */
@Tag("slow") // not in ./lab test --fast: starts PostgreSQL and services and runs load
class OwnServiceRunTests {

	static final JsonMapper json = JsonMapper.builder().build();

	/** Kept when a test fails: the run's logs are the evidence. */
	@TempDir(cleanup = CleanupMode.ON_SUCCESS)
	Path out;

	Path file;

	@BeforeEach
	void serviceFile() throws Exception {
		try {
			Postgres.binaries();
		}
		catch (RuntimeException ex) {
			System.out.println("OwnServiceRunTests skipped: " + ex.getMessage());
			Assumptions.abort(ex.getMessage());
		}
		Path fixture = RunnerTests.root().resolve("fixtures/pg-orders");
		Path jar = fixture.resolve("target/pg-orders.jar");
		assertThat(jar).as("the reactor builds the proof service before the runner").isRegularFile();
		this.file = this.out.resolve("service.yml");
		Files.writeString(this.file, String.join("\n", "name: pg-orders", "jar: " + jar, "metrics: {path: /actuator/prometheus, port: management.server.port}",
				// Two named requests, the second fed ids 1-5 in turn; the service's access log shows what was sent.
				"requests: [{name: order, path: '/orders/7?waitMs=20', weight: 3}, {name: by-id, path: '/orders/{id}?waitMs=1', feed: {values: {id: 1-5}}}]",
				"properties: {server.tomcat.accesslog.enabled: true, server.tomcat.accesslog.buffered: false, server.tomcat.accesslog.pattern: '%r',"
						+ " server.tomcat.accesslog.directory: " + this.out.resolve("access") + "}",
				"arms:",
				"  - {name: vt-on, properties: {spring.threads.virtual.enabled: true, spring.datasource.hikari.maximum-pool-size: 2}}",
				"  - {name: vt-off, properties: {spring.threads.virtual.enabled: false, spring.datasource.hikari.maximum-pool-size: 2}}",
				"target: p99<=1000ms,errors<=0.1%", "needs:", "  postgres: {database: orders, init: " + fixture.resolve("schema.sql") + "}", ""));
	}

	@AfterEach
	void noProcessIsLeftBehind() {
		assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).map(ProcessHandle::pid)).isEmpty();
	}

	List<String> command(Path results) {
		return List.of(Path.of(System.getProperty("java.home"), "bin/java").toString(), "-Dlab.root=" + RunnerTests.root(), "-cp",
				System.getProperty("java.class.path"), "lab.Main", "run", "--service", this.file.toString(), "--users", "8", "--hold", "5",
				"--warmup-seconds", "10", "--out", results.toString());
	}

	@Test
	void armsOfAUsersOwnServiceAreMeasuredFromOutsideAgainstARealPostgresAndThePoolIsNamedAsTheLimit() throws Exception {
		Path results = this.out.resolve("run");
		Path log = this.out.resolve("runner.log");
		Process runner = new ProcessBuilder(command(results)).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		try {
			assertThat(runner.waitFor(10, TimeUnit.MINUTES)).as("the run ends").isTrue();
		}
		finally {
			runner.descendants().forEach(ProcessHandle::destroyForcibly);
			runner.destroyForcibly().waitFor();
		}
		String console = Files.readString(log);
		assertThat(runner.exitValue()).as(console).isIn(0, 3);
		Path data = dataDirectory(console);
		assertThat(data).as("PostgreSQL's directory is removed after the run").doesNotExist();
		assertThat(console).contains("lab: your service pg-orders: pg-orders.jar").contains("postgresql 42.").contains("HikariCP ");

		JsonNode manifest = json.readTree(results.resolve("manifest.json").toFile());
		assertThat(manifest.path("ownService").path("libraries").path("driver").asString()).startsWith("postgresql ");
		assertThat(manifest.path("ownService").path("libraries").path("pool").asString()).startsWith("HikariCP ");
		assertThat(manifest.path("ownService").path("jarSha256").asString()).hasSize(64);

		List<String> variants = new ArrayList<>();
		java.util.Map<String, Double> virtualAtEnd = new java.util.HashMap<>();
		for (JsonNode row : json.readTree(results.resolve("summary.json").toFile()).path("results")) {
			String variant = row.path("variant").asString();
			variants.add(variant);
			assertThat(row.path("verdict").asString()).as(variant + " " + row.path("reasons")).isNotEqualTo("FAILED");
			assertThat(row.path("rps").asDouble()).as(variant + " rps").isPositive();
			// Two connections, three queries in four held 20 ms and one 1 ms: 15.25 ms a query on average, at most about 131
			// answers a second, whatever the threads.
			assertThat(row.path("rps").asDouble()).as(variant + " rps bounded by the pool").isLessThan(145);
			// From outside: /proc and jstat, no meter of the lab's in the service.
			assertThat(row.path("peakRssMiB").asDouble()).as(variant + " RSS").isPositive();
			assertThat(row.path("jstatHeapMiB").asDouble()).as(variant + " heap (jstat, under its own name)").isPositive();
			assertThat(row.path("peakNativeThreads").asDouble()).as(variant + " threads").isPositive();
			// The database the lab started, watched with the service: its backends busy with the pool's queries, its own CPU.
			assertThat(row.path("pgActiveBackends").asDouble()).as(variant + " active backends (pool of 2)").isBetween(0.5, 2.5);
			assertThat(row.path("pgCpuPercent").asDouble()).as(variant + " PostgreSQL's CPU").isPositive();
			// Virtual threads alive from the thread dump, in a service without those meters.
			virtualAtEnd.put(variant, row.path("virtualThreadsAtEnd").asDouble());
			// Each named request's own figures; together they are the level's requests with an outcome.
			List<String> names = new ArrayList<>();
			long sum = 0;
			for (JsonNode request : row.path("byRequest")) {
				names.add(request.path("name").asString());
				sum += request.path("requests").asLong();
				assertThat(request.path("p99Ms").asDouble()).as(variant + " " + request).isPositive();
			}
			assertThat(names).containsExactly("order", "by-id");
			assertThat(sum).as(variant + " requests by name").isEqualTo(row.path("requests").asLong() - row.path("unanswered").asLong());
			// HikariCP's own meters from the service's endpoint: the pool full, threads waiting for it.
			assertThat(row.path("poolMax").asDouble()).as(variant + " pool size").isEqualTo(2);
			assertThat(row.path("peakPoolPending").asDouble()).as(variant + " waiting for a connection").isPositive();
			Path level = results.resolve(variant).resolve("users-8");
			assertThat(Files.readString(level.resolve(LevelDir.POOL))).contains("The connection pool was the limit");
			assertThat(level.resolve(LevelDir.JSTAT)).isNotEmptyFile();
			assertThat(Files.readString(results.resolve(variant).resolve("command.txt"))).contains("--spring.datasource.url=jdbc:postgresql://127.0.0.1:")
				.doesNotContain("--lab.");
		}
		assertThat(variants).containsExactly("pg-orders-vt-on", "pg-orders-vt-off");
		// The fed request sent the values it was given, ids 1 to 5, each about as often (circular: a Gatling run starts at
		// the first; the admission check sends the first once per arm), counted from the service's own access log.
		java.util.Map<String, Long> ids = new java.util.TreeMap<>();
		try (var logs = Files.list(this.out.resolve("access"))) {
			for (Path accessLog : logs.toList()) {
				for (String line : Files.readAllLines(accessLog)) {
					java.util.regex.Matcher sent = java.util.regex.Pattern.compile("GET /orders/(\\d+)\\?waitMs=1 ").matcher(line);
					if (sent.find()) {
						ids.merge(sent.group(1), 1L, Long::sum);
					}
				}
			}
		}
		assertThat(ids.keySet()).as("ids sent: " + ids).containsExactly("1", "2", "3", "4", "5");
		long most = java.util.Collections.max(ids.values());
		long least = java.util.Collections.min(ids.values());
		assertThat(most - least).as("circular: each about as often, " + ids).isLessThanOrEqualTo(10);
		assertThat(virtualAtEnd.get("pg-orders-vt-on")).as("a virtual thread a request in flight, " + virtualAtEnd)
			.isGreaterThan(virtualAtEnd.get("pg-orders-vt-off"));
		assertThat(console).contains("the connection pool was the limit (2 of 2 busy");
		assertThat(Files.readString(results.resolve("report.html"))).as("the user's question, not the lab's")
			.contains("The question: which arm of pg-orders (pg-orders-vt-on, pg-orders-vt-off) serves the most users within the target");
	}

	@Test
	void aRunnerKilledOutrightLeavesNoPostgresNorItsDirectoryBehind() throws Exception {
		Path results = this.out.resolve("killed");
		Path log = this.out.resolve("killed.log");
		Process runner = new ProcessBuilder(command(results)).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		Path data;
		List<ProcessHandle> children;
		try {
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
			while (!Files.readString(log).contains("warming up") && System.nanoTime() < deadline && runner.isAlive()) {
				Thread.sleep(200);
			}
			data = dataDirectory(Files.readString(log));
			assertThat(data).as("PostgreSQL's directory while it runs").isDirectory();
			children = runner.descendants().toList();
			FaultSuiteTests.signal("KILL", runner.pid());
			runner.waitFor(10, TimeUnit.SECONDS);
			long gone = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
			while ((children.stream().anyMatch(ProcessHandle::isAlive) || Files.exists(data)) && System.nanoTime() < gone) {
				Thread.sleep(100);
			}
		}
		finally {
			runner.descendants().forEach(ProcessHandle::destroyForcibly);
			runner.destroyForcibly().waitFor();
		}
		assertThat(children).as("PostgreSQL, the service and the injector end with the runner").noneMatch(ProcessHandle::isAlive);
		assertThat(data).as("the watchdog removed PostgreSQL's directory").doesNotExist();
	}

	/** The data directory the runner names when PostgreSQL is up. */
	static Path dataDirectory(String console) {
		Matcher matcher = Pattern.compile("lab: PostgreSQL up at \\S+ \\(pid \\d+, data in (\\S+),").matcher(console);
		assertThat(matcher.find()).as("PostgreSQL started:\n" + console).isTrue();
		return Path.of(matcher.group(1));
	}

}
