package lab;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import lab.analyse.GoldenFixtures;
import lab.plan.Variant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** The command line: bad flags exit 2 with one line naming the problem, before anything starts. */
class MainTests {

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			run --users abc                      | Invalid value for option '--users'
			run --bogus                          | Unknown option: '--bogus'
			run --scenario nope --dry-run        | unknown scenario 'nope'
			run --variants app-x --dry-run       | unknown variant 'app-x'
			run --profile t3-nano --dry-run      | unknown profile 't3-nano'
			run --delay-ms -3 --dry-run          | delayMs must be between 0 and 60000
			report /nonexistent                  | is not a results directory
			compare /nonexistent /nothing        | is not a results directory
			compare --noise -1 /a /b             | --noise must be 0 or more
			run --target http://h:8080 --dry-run | --target http://h:8080 is one running service: name which it is with --variants
			run --variants app-webflux,app-tomcat-loom --target app-webflux=http://h:8081 --dry-run | --target names no URL for app-tomcat-loom
			run --compose --target http://h:8081 --dry-run | --compose reaches every variant and the downstream in the Compose stack itself
			run --target ftp://h --dry-run       | --target 'ftp://h' is not a base URL
			run --injectors a;b --dry-run        | --injectors: 'a;b' is neither 'local' nor an SSH destination
			run --variants app-webflux --management http://h:9081 --dry-run | --management names where a --target answers health and metrics: pass it with --target
			run --target app-webflux=http://h:8081 --management app-tomcat-loom=http://h:9080 --dry-run | --management names app-tomcat-loom, which no --target measures
			run --injectors ubuntu@h --dry-run   | --injectors on other hosts cannot reach a service this machine starts
			injectors --instance-type z9.metal   | --instance-type z9.metal: its vCPUs are not in the lab's table
			injectors --instance-type c5.large --count 0 | --count must be 1 or more
			run --latency-target p98<=1s,errors<=1% --dry-run | latency target 'p98<=1s,errors<=1%': cannot read 'p98<=1s'
			run --latency-target p99<=1s --dry-run | needs both a latency and an error clause: write it as p99<=1000ms,errors<=0.1%
			run --service /nonexistent/service.yml --dry-run | --service /nonexistent/service.yml: no such file; give the path of a service YAML file
			run --service /x.yml --variants app-webflux --dry-run | --service cannot be combined with --variants (the file's arms are the rows)
			run --service /x.yml --tuning tuned --work 100 --dry-run | --service cannot be combined with --tuning, --observe and --aot (give the arms' properties and JVM options in the file); --work
			""")
	void badInputExitsWithTwoAndOneLine(String args, String expected) {
		Result result = run(args.strip().split(" "));
		assertThat(result.code()).isEqualTo(2);
		assertThat(result.err().strip()).contains(expected).doesNotContain("\n").doesNotContain("Exception");
	}

	@ParameterizedTest
	@CsvSource({ "run", "report", "compare", "doctor", "generate", "injectors" })
	void everyCommandsHelpRendersWithoutAFormatWarning(String command) {
		// picocli formats descriptions: a lone '%' (as in "errors<=0.1%") makes it print a warning and the raw text.
		Result result = run(command, "--help");
		assertThat(result.code()).isZero();
		assertThat(result.out()).contains("Usage: lab " + command);
		assertThat(result.err()).doesNotContain("picocli WARN");
	}

	@Test
	void aServiceFilesDryRunPrintsItsArmsRequestsAndDatabaseAndLeavesNoVariantBehind(@TempDir Path dir) throws Exception {
		Files.writeString(dir.resolve("orders.jar"), "a jar is only checked for existence by a dry run");
		Path file = dir.resolve("service.yml");
		Files.writeString(file, String.join("\n", "name: orders", "jar: orders.jar", "requests: [{path: /orders/1}, {path: /orders/2, weight: 3}]",
				"arms: [{name: vt-on, properties: {spring.threads.virtual.enabled: true}}, {name: vt-off, properties: {spring.threads.virtual.enabled: false}}]",
				"target: p99<=200ms,errors<=0.1%", "needs: {postgres: {database: orders}}", ""));
		Result result = run("run", "--service", file.toString(), "--dry-run");
		assertThat(result.code()).as(result.err()).isZero();
		assertThat(result.out()).contains("scenario service (closed)").contains("your service orders: " + dir.resolve("orders.jar"))
			.contains("each request: GET /orders/1 (25%, expects 200); GET /orders/2 (75%, expects 200)")
			.contains("needs PostgreSQL: started here from the distribution's binaries (database orders)")
			.contains("arm orders-vt-on: --spring.threads.virtual.enabled=true").contains("arm orders-vt-off: --spring.threads.virtual.enabled=false")
			.contains("orders-vt-on: users-25 users-50");
		assertThat(Variant.names()).as("the arms are variants of that run only").doesNotContain("orders-vt-on");
	}

	@Test
	void dryRunPrintsThePlanAndStartsNothing() {
		Result result = run("run", "--scenario", "seed", "--variants", "app-webflux", "--dry-run");
		assertThat(result.code()).isZero();
		assertThat(result.out()).contains("scenario seed (closed)").contains("app-webflux: users-1000").contains("estimated time");
		assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)).isEmpty();
	}

	@Test
	void targetsByNameAndTheComposeStackArePlannedVariantByVariant() {
		Result named = run("run", "--scenario", "smoke", "--target", "app-webflux=http://10.0.1.5:8081,app-tomcat-loom=http://10.0.1.6:8080/", "--dry-run");
		assertThat(named.code()).as(named.err()).isZero();
		// The names give the variants, in their order; each is measured at its own URL.
		assertThat(named.out()).contains("target app-webflux at http://10.0.1.5:8081 (already running")
			.contains("target app-tomcat-loom at http://10.0.1.6:8080 (already running").contains("app-webflux: users-")
			.contains("app-tomcat-loom: users-").doesNotContain("app-webflux-loom: users-");

		// A management port of its own for one of them (as on AWS): health and metrics there, the other's on its base URL.
		Result managed = run("run", "--scenario", "smoke", "--target", "app-webflux=http://10.0.1.5:8081,app-tomcat-loom=http://10.0.1.6:8080",
				"--management", "app-webflux=http://10.0.1.5:9081", "--dry-run");
		assertThat(managed.code()).as(managed.err()).isZero();
		assertThat(managed.out()).contains("target app-webflux at http://10.0.1.5:8081, health and metrics at http://10.0.1.5:9081 (already running")
			.contains("target app-tomcat-loom at http://10.0.1.6:8080 (already running");

		Result compose = run("run", "--scenario", "smoke", "--compose", "--dry-run");
		assertThat(compose.code()).as(compose.err()).isZero();
		// Every variant of variants.yml at the port the Compose file publishes by default (no LAB_*_PORT set here).
		for (Variant variant : Variant.ALL) {
			String published = System.getenv("LAB_" + variant.envName() + "_PORT");
			assertThat(compose.out()).contains("target " + variant.name() + " at http://127.0.0.1:" + ((published != null) ? published : variant.port()));
		}
		assertThat(compose.out()).contains("Compose stack reached through its published ports on 127.0.0.1")
			.containsPattern("downstream http://127.0.0.1:\\d+ \\(already running").contains("profile: not applied");
	}

	@Test
	void compareWritesTheRunsSideBySide(@TempDir Path dir) throws Exception {
		Path a = GoldenFixtures.write(Files.createDirectories(dir.resolve("a")));
		Path b = GoldenFixtures.write(Files.createDirectories(dir.resolve("b")));
		Path out = dir.resolve("out");
		Result result = run("compare", a.toString(), b.toString(), "--baseline", a.toString(), "--out", out.toString());
		assertThat(result.code()).isZero();
		assertThat(result.out()).contains("lab: 2 runs");
		String html = Files.readString(out.resolve("compare.html"));
		assertThat(html).contains("a (baseline)").contains("id=\"differences\"").contains("<img").doesNotContain("<script");
		assertThat(Files.readString(out.resolve("compare.json"))).contains("\"schema\" : \"loom-lab/compare/1\"")
			.contains("\"rpsChangePercent\" : 0.0");
		assertThat(Files.readString(out.resolve("compare.md"))).contains("| app-webflux | 100 | b | 190 |");
	}

	@Test
	void compareFailsOnWorseWithItsOwnExitCode(@TempDir Path dir) throws Exception {
		Path a = GoldenFixtures.write(Files.createDirectories(dir.resolve("a")));
		Path b = GoldenFixtures.write(Files.createDirectories(dir.resolve("b")));
		// The same run again is not worse: exit 0.
		Result same = run("compare", a.toString(), b.toString(), "--fail-on-worse", "--out", dir.resolve("same").toString());
		assertThat(same.code()).isZero();
		assertThat(same.out()).contains("lab: nothing worse than a beyond the noise");
		// b: app-webflux at 100 users answers every request with a 5xx (FAILED): worse, exit 3, and named.
		Path level = b.resolve("app-webflux/users-100");
		Files.writeString(level.resolve("requests.csv"), Files.readString(level.resolve("requests.csv")).replace(",190,0,2,", ",0,0,192,"));
		Result worse = run("compare", a.toString(), b.toString(), "--fail-on-worse", "--out", dir.resolve("worse").toString());
		assertThat(worse.code()).isEqualTo(lab.run.Gate.TARGET_MISSED_EXIT_CODE).isEqualTo(3);
		assertThat(worse.out()).contains("lab: worse than a: b: app-webflux at 100 FAILED (OK in the baseline)");
		// Without the flag the comparison only reports.
		assertThat(run("compare", a.toString(), b.toString(), "--out", dir.resolve("plain").toString()).code()).isZero();
	}

	record Result(int code, String out, String err) {
	}

	static Result run(String... args) {
		PrintStream out = System.out;
		PrintStream err = System.err;
		ByteArrayOutputStream stdout = new ByteArrayOutputStream();
		ByteArrayOutputStream stderr = new ByteArrayOutputStream();
		try {
			System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
			System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
			int code = Main.execute(args);
			return new Result(code, stdout.toString(StandardCharsets.UTF_8), stderr.toString(StandardCharsets.UTF_8));
		}
		finally {
			System.setOut(out);
			System.setErr(err);
		}
	}

}
