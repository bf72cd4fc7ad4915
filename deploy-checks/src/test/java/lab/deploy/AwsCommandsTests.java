package lab.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ./lab aws up}, {@code run} and {@code down} end to end, as an operator runs them: Terraform with the real AWS
 * provider against moto's EC2 ({@link EmulatedAws}), and every instance moto creates a real SSH target: a container of
 * an Ubuntu-like image (resources/aws/instance) holding the instance's own private address on a network of the subnet's
 * range, its real user data run in it at first contact, reached by its public address through an SSH ProxyCommand
 * (resources/aws/instance/route.sh). One variant (app-webflux) and the smoke scenario keep it to minutes. Two injectors:
 * the runner on the first drives the second over SSH with the operator's forwarded agent (an ssh-agent the test starts),
 * the load split between them and their histograms merged.
 */
@Tag("slow") // not in ./lab test --fast: builds the provider the first time, starts containers and runs a scenario in them
class AwsCommandsTests {

	static final Path OUT = Repo.root().resolve("deploy-checks/target/aws-commands");

	static final String IMAGE = InstanceImage.NAME;

	final String prefix = "labaws" + ProcessHandle.current().pid();

	final Map<String, String> env = new LinkedHashMap<>();

	@Test
	void upRunDownCreateShipMeasureBringTheReportHomeAndLeaveNothing() throws Exception {
		String why = whyNot();
		if (why != null) {
			System.out.println("AwsCommandsTests skipped: " + why);
			Assumptions.abort(why);
		}
		Commands.deleteTree(OUT);
		Files.createDirectories(OUT);
		this.env.put("CONTAINERS_CONF", Repo.root().resolve(".tools/podman/containers.conf").toString());
		Path image = InstanceImage.build(this::command, OUT.resolve("commands.log"));
		assertThat(command(Duration.ofMinutes(1), "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", OUT.resolve("id").toString()).exit())
			.isZero();
		// The VPC's subnet (terraform/: 10.42.1.0/24) as a container network: each instance keeps moto's private address.
		assertThat(command(Duration.ofMinutes(1), "podman", "network", "create", "--subnet", "10.42.1.0/24", this.prefix).exit())
			.as("a container network on 10.42.1.0/24 (another one holds the range?)").isZero();
		Map<String, String> variables = TerraformProviderTests.variables(List.of("\"app-webflux\""));
		// moto ignores the credit specification and reads "standard" back: with "unlimited", the second up would try to
		// modify it, a call moto does not answer (the provider retries until its timeout). TerraformProviderTests shows
		// that drift; here the lab's repeatability is the point.
		variables.put("t2_cpu_credits", "\"standard\"");
		variables.put("injector_count", "2");
		Process agent = startAgent();
		try (EmulatedAws aws = EmulatedAws.start(OUT.resolve("lab"), variables)) {
			aws.importKeyPair("lab-operator", OUT.resolve("id.pub"));
			this.env.putAll(aws.env);
			this.env.put("LAB_AWS_DIR", aws.config.toString());
			this.env.put("LAB_RESULTS_DIR", OUT.resolve("results").toString());
			Path sshConfig = InstanceImage.sshConfig(OUT, "ProxyCommand bash " + image.resolve("route.sh") + " %h");
			this.env.put("LAB_SSH_OPTIONS", "-F " + sshConfig);
			this.env.put("LAB_TEST_MOTO", aws.endpoint());
			this.env.put("LAB_TEST_REGION", EmulatedAws.REGION);
			this.env.put("LAB_TEST_PYTHON", Path.of(Commands.lastLine(command(Duration.ofMinutes(10), Repo.root().resolve("scripts/moto.sh").toString()).output()))
				.resolve("python").toString());
			this.env.put("LAB_TEST_NETWORK", this.prefix);
			this.env.put("LAB_TEST_IMAGE", IMAGE);
			this.env.put("LAB_TEST_PREFIX", this.prefix);
			this.env.put("LAB_TEST_KEY", OUT.resolve("id.pub").toString());
			this.env.put("LAB_TEST_DIR", OUT.toString());

			// --dry-run prints every command and changes nothing.
			for (String step : List.of("up", "run", "down")) {
				Commands.Result dry = lab(Duration.ofMinutes(2), "aws", step, "--dry-run");
				assertThat(dry.exit()).as(dry.toString()).isZero();
				assertThat(dry.output()).contains("+ terraform").doesNotContain("Apply complete");
				Files.writeString(OUT.resolve("dry-run-" + step + ".txt"), dry.output());
			}
			assertThat(aws.inventory().path("instances")).as("a dry run creates nothing").isEmpty();
			// The injector plan: the seed's 10,000 users on 500 ms need one c5.xlarge; two are configured.
			assertThat(Files.readString(OUT.resolve("dry-run-up.txt"))).contains("lab aws: injectors: scenario seed's top load, 10,000 users")
				.contains("1 injector(s) needed, 2 planned").doesNotContain("WARNING");
			assertThat(Files.readString(OUT.resolve("dry-run-run.txt"))).contains("--management app-webflux=<management_urls[app-webflux]>");
			Commands.Result capacityPlan = lab(Duration.ofMinutes(2), "aws", "up", "--dry-run", "--scenario", "capacity");
			assertThat(capacityPlan.output()).contains("2 injector(s) needed, 2 planned").doesNotContain("WARNING");
			Commands.Result badFlag = lab(Duration.ofMinutes(1), "aws", "run", "--target", "http://10.0.0.1:8080");
			assertThat(badFlag.exit()).isEqualTo(2);
			assertThat(badFlag.output()).contains("./lab aws run sets --target itself");

			Commands.Result up = lab(Duration.ofMinutes(20), "aws", "up", "--yes");
			assertThat(up.exit()).as(up.toString()).isZero();
			assertThat(up.output()).contains("aws_instance.proxy[\"app-webflux\"]: t2.micro").contains("an hour").contains("Apply complete!")
				.contains("up: 1 variant(s) healthy");
			JsonNode outputs = Repo.json.readTree(aws.terraform(Duration.ofMinutes(1), "output", "-json").output());
			String proxy = outputs.path("proxy_urls").path("value").path("app-webflux").asText();
			// The proxy answers the contract at its private address, through its downstream at the downstream's.
			Commands.Result contract = command(Duration.ofMinutes(1), "podman", "exec", this.prefix + "-loom-lab-injector-0", "curl", "-fsS",
					proxy + "/address/1");
			assertThat(contract.exit()).as(contract.toString()).isZero();
			// The user data ran for real in each container: the unit it wrote is what was started.
			Commands.Result unit = command(Duration.ofMinutes(1), "podman", "exec", this.prefix + "-loom-lab-app-webflux", "sh", "-c",
					"cat /var/lib/cloud/user-data.exit; grep ExecStart= /etc/systemd/system/app-webflux.service");
			assertThat(unit.output()).startsWith("0\n").contains("--lab.downstream.base-url=" + outputs.path("downstream_url").path("value").asText())
				.contains("--management.server.port=9081");
			// Health and metrics on the management port, reached from an injector (inside the group).
			String management = outputs.path("management_urls").path("value").path("app-webflux").asText();
			assertThat(management).isEqualTo(proxy.replace(":8081", ":9081"));
			Commands.Result metrics = command(Duration.ofMinutes(1), "podman", "exec", this.prefix + "-loom-lab-injector-0", "curl", "-fsS",
					management + "/actuator/prometheus");
			assertThat(metrics.exit()).as(metrics.toString()).isZero();
			assertThat(metrics.output()).contains("process_cpu_time_ns_total");
			String second = outputs.path("injector_private_ips").path("value").path(1).asText();
			assertThat(second).as("a second injector").startsWith("10.42.1.");

			// Repeated after it stood: nothing to create, everything shipped again.
			Commands.Result again = lab(Duration.ofMinutes(10), "aws", "up", "--yes");
			assertThat(again.exit()).as(again.toString()).isZero();
			assertThat(again.output()).contains("nothing to create").contains("Resources: 0 added, 0 changed, 0 destroyed")
				.doesNotContain("  create:").doesNotContain("  update:").doesNotContain("  delete:").contains("up: 1 variant(s) healthy");

			// A fixed warm-up of 5 s (smoke warms up to 150 s while the JIT compiles): the pipeline is under test here, not the figures.
			Commands.Result run = lab(Duration.ofMinutes(20), "aws", "run", "--scenario", "smoke", "--warmup-seconds", "5");
			assertThat(run.exit()).as(run.toString()).isZero();
			Path results;
			try (Stream<Path> dirs = Files.list(OUT.resolve("results"))) {
				results = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
			}
			assertThat(results.getFileName().toString()).endsWith("-aws");
			JsonNode manifest = Repo.json.readTree(results.resolve("manifest.json").toFile());
			assertThat(manifest.path("remote").path("site").asText())
				.isEqualTo("AWS eu-west-1a: proxy t2.micro (t2 credits standard), downstream t2.medium, 2 x injector c5.xlarge");
			assertThat(manifest.path("remote").path("targets").path("app-webflux").asText()).isEqualTo(proxy);
			assertThat(manifest.path("remote").path("management").path("app-webflux").asText()).isEqualTo(management);
			assertThat(Repo.json.convertValue(manifest.path("remote").path("injectors"), List.class)).containsExactly("local", "ubuntu@" + second);
			assertThat(manifest.path("gitCommit").asText()).contains("stated by ./lab aws");
			JsonNode summary = Repo.json.readTree(results.resolve("summary.json").toFile());
			assertThat(summary.toString()).contains("app-webflux");
			// Both injectors loaded the level (10 + 10 users), each wrote its files, and their requests add up to the level's.
			JsonNode level = summary.path("results").get(0);
			assertThat(level.path("injectors")).hasSize(2);
			long shares = 0;
			for (JsonNode share : level.path("injectors")) {
				assertThat(share.path("requests").asLong()).as(share.toString()).isPositive();
				shares += share.path("requests").asLong();
			}
			assertThat(shares).isEqualTo(level.path("requests").asLong());
			Path levelDir = results.resolve("app-webflux").resolve("users-20");
			for (String part : List.of("injector-1", "injector-2")) {
				assertThat(levelDir.resolve(part).resolve("latency.hlog")).as(part).isNotEmptyFile();
				assertThat(Files.readString(levelDir.resolve(part).resolve("gatling-command.txt"))).contains("-Dusers=10");
			}
			// The runner scraped the proxy's management port: its CPU is in the level's samples.
			assertThat(Files.readString(levelDir.resolve("metrics.csv"))).contains(",service,cpu_user_seconds,");
			assertThat(Files.readString(results.resolve("report.html"))).contains("AWS eu-west-1a");
			Files.writeString(OUT.resolve("run-summary.json"), summary.toPrettyString());

			Commands.Result down = lab(Duration.ofMinutes(10), "aws", "down", "--yes");
			assertThat(down.exit()).as(down.toString()).isZero();
			assertThat(down.output()).contains("down: nothing is left");
			JsonNode left = aws.inventory();
			assertThat(left.path("instances")).isEmpty();
			assertThat(left.path("vpcs")).isEmpty();
			Commands.Result downAgain = lab(Duration.ofMinutes(5), "aws", "down", "--yes");
			assertThat(downAgain.exit()).as(downAgain.toString()).isZero();
			assertThat(downAgain.output()).contains("nothing to destroy");
		}
		finally {
			removeContainersAndNetwork();
			agent.destroy();
		}
	}

	/**
	 * The operator's ssh-agent holding the test's key: {@code ./lab aws run} forwards it (ssh -A) so the runner on the
	 * first injector reaches the second. Its socket goes into the test's environment.
	 */
	private Process startAgent() throws Exception {
		Path socket = OUT.resolve("agent.sock");
		Files.deleteIfExists(socket);
		Process agent = new ProcessBuilder("ssh-agent", "-D", "-a", socket.toString()).redirectErrorStream(true)
			.redirectOutput(OUT.resolve("ssh-agent.log").toFile()).start();
		for (int i = 0; i < 100 && !Files.exists(socket); i++) {
			Thread.sleep(100);
		}
		this.env.put("SSH_AUTH_SOCK", socket.toString());
		Commands.Result added = command(Duration.ofMinutes(1), "ssh-add", OUT.resolve("id").toString());
		assertThat(added.exit()).as("ssh-add: " + added).isZero();
		return agent;
	}

	static String whyNot() {
		String why = EmulatedAws.whyNot();
		if (why != null) {
			return why;
		}
		for (String tool : List.of("podman", "runc", "ssh", "scp", "ssh-keygen", "ssh-agent", "ssh-add")) {
			if (!Commands.onPath(tool)) {
				return tool + " is not installed (apt-get install podman runc openssh-client)";
			}
		}
		if (!"root".equals(System.getProperty("user.name"))) {
			return "the instance containers need podman as root (docker/podman-compose.sh)";
		}
		return null;
	}

	private Commands.Result lab(Duration timeout, String... arguments) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>(List.of(Repo.root().resolve("lab").toString()));
		command.addAll(List.of(arguments));
		return command(timeout, command.toArray(String[]::new));
	}

	/** A command with the test's environment; everything it prints is appended to commands.log. */
	private Commands.Result command(Duration timeout, String... command) throws IOException, InterruptedException {
		return Commands.run(List.of(command), this.env, OUT, OUT.resolve("commands.log"), timeout);
	}

	/** The containers this test started (their names carry its PID), then its network. */
	private void removeContainersAndNetwork() throws IOException, InterruptedException {
		String names = command(Duration.ofMinutes(1), "podman", "ps", "-a", "--filter", "name=^" + this.prefix + "-", "--format", "{{.Names}}").output();
		for (String name : names.lines().filter(line -> line.startsWith(this.prefix + "-")).toList()) {
			command(Duration.ofMinutes(2), "podman", "rm", "-f", "-t", "5", name);
		}
		command(Duration.ofMinutes(1), "podman", "network", "rm", "-f", this.prefix);
	}


}
