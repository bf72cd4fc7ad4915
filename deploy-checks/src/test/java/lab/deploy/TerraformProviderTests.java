package lab.deploy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;
import lab.plan.Variant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * terraform/ loaded by the real AWS provider (built from the Go module proxy by scripts/aws-provider.sh, 6.47.1) and
 * applied against moto's EC2 on loopback: init offline from the lab's mirror, validate, plan, apply, what the emulator
 * then holds (asked of it directly), a second plan, destroy, nothing left. And the configuration broken on purpose
 * fails with the provider's own message. Skipped, with the reason printed, where Go, python3 or terraform is missing.
 */
@Tag("slow") // not in ./lab test --fast: builds the provider the first time (minutes), then applies against an emulator
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TerraformProviderTests {

	static final Duration COMMAND = Duration.ofMinutes(5);

	static final Path OUT = Repo.root().resolve("deploy-checks/target/terraform-provider");

	/** The database set's services and their ports (their application.yml). */
	static final List<String> DB_SET = List.of("app-db-tomcat-loom", "app-db-tomcat-platform", "app-db-webflux-r2dbc", "app-db-webflux-loom");

	static final Map<String, Integer> DB_PORTS = Map.of("app-db-tomcat-loom", 8085, "app-db-tomcat-platform", 8086, "app-db-webflux-r2dbc", 8087,
			"app-db-webflux-loom", 8088);

	EmulatedAws aws;

	@BeforeAll
	void emulator() throws Exception {
		String why = EmulatedAws.whyNot();
		if (why != null) {
			System.out.println("TerraformProviderTests skipped: " + why);
			Assumptions.abort(why);
		}
		Path key = OUT.resolve("operator.pub");
		Map<String, String> variables = variables(List.of("\"" + String.join("\", \"", Variant.names()) + "\""));
		// The database set too: its PostgreSQL on an instance of its own, each of its services on one of theirs.
		variables.put("database_set", "[\"" + String.join("\", \"", DB_SET) + "\"]");
		this.aws = EmulatedAws.start(OUT.resolve("lab"), variables);
		Files.writeString(key, "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBk2pSSqK/6hF5b0q+OpKzgQhyWcOq9vHIGc4pR4xYhL operator\n");
		this.aws.importKeyPair("lab-operator", key);
		assertThat(this.aws.terraform(COMMAND, "init", "-input=false", "-no-color").exit()).as("terraform init from the mirror; see " + this.aws.log)
			.isZero();
	}

	@AfterAll
	void stop() throws Exception {
		if (this.aws != null) {
			this.aws.close();
		}
	}

	/** The operator's variables, as terraform.tfvars.example asks for them. */
	static Map<String, String> variables(List<String> variants) {
		Map<String, String> variables = new LinkedHashMap<>();
		variables.put("region", "\"" + EmulatedAws.REGION + "\"");
		variables.put("owner", "\"lab-test@example.com\"");
		variables.put("operator_cidr", "\"203.0.113.7/32\"");
		variables.put("key_name", "\"lab-operator\"");
		variables.put("variants", "[" + String.join(", ", variants) + "]");
		return variables;
	}

	@Test
	void theConfigurationValidatesPlansAppliesAsDeclaredAndDestroysToNothing() throws Exception {
		Commands.Result validate = this.aws.terraform(COMMAND, "validate", "-no-color");
		assertThat(validate.exit()).as(validate.toString()).isZero();

		Commands.Result plan = this.aws.terraform(COMMAND, "plan", "-input=false", "-no-color", "-out=lab.tfplan");
		assertThat(plan.exit()).as(plan.toString()).isZero();
		JsonNode planned = Repo.json.readTree(this.aws.terraform(COMMAND, "show", "-json", "lab.tfplan").output());
		Set<String> created = new TreeSet<>();
		planned.path("resource_changes").forEach(change -> {
			assertThat(change.path("change").path("actions").toString()).as(change.path("address").asText()).isEqualTo("[\"create\"]");
			created.add(change.path("address").asText());
		});
		Set<String> expected = new TreeSet<>(List.of("aws_vpc.lab", "aws_default_security_group.closed", "aws_internet_gateway.lab",
				"aws_subnet.lab", "aws_route_table.lab", "aws_route_table_association.lab", "aws_security_group.lab",
				"aws_instance.downstream", "aws_instance.injector[0]"));
		Variant.names().forEach(variant -> expected.add("aws_instance.proxy[\"" + variant + "\"]"));
		expected.add("aws_instance.database[0]");
		DB_SET.forEach(service -> expected.add("aws_instance.db_service[\"" + service + "\"]"));
		assertThat(created).isEqualTo(expected);

		Commands.Result apply = this.aws.terraform(COMMAND, "apply", "-input=false", "-no-color", "lab.tfplan");
		assertThat(apply.exit()).as(apply.toString()).isZero();
		JsonNode outputs = Repo.json.readTree(this.aws.terraform(COMMAND, "output", "-json").output());
		JsonNode inventory = this.aws.inventory();
		theEmulatorHoldsTheLab(inventory, outputs);
		everyUserDataPassesBashAndShellcheck(inventory);

		// A second plan after apply: moto ignores the t2 credit specification (it reads "standard" back), so the only
		// drift it may show is that attribute of the t2 instances; anything else is the configuration's.
		Commands.Result again = this.aws.terraform(COMMAND, "plan", "-input=false", "-no-color", "-detailed-exitcode", "-out=again.tfplan");
		assertThat(again.exit()).as(again.toString()).isIn(0, 2);
		JsonNode drift = Repo.json.readTree(this.aws.terraform(COMMAND, "show", "-json", "again.tfplan").output());
		for (JsonNode change : drift.path("resource_changes")) {
			List<String> changed = changedAttributes(change);
			if (!changed.isEmpty()) {
				assertThat(change.path("change").path("actions").toString()).as(change.path("address").asText()).isEqualTo("[\"update\"]");
				assertThat(changed).as(change.path("address").asText() + ": only the emulator's credit gap").containsExactly("credit_specification");
			}
		}

		Commands.Result destroy = this.aws.terraform(COMMAND, "destroy", "-auto-approve", "-input=false", "-no-color");
		assertThat(destroy.exit()).as(destroy.toString()).isZero();
		JsonNode left = this.aws.inventory();
		for (String kind : List.of("vpcs", "subnets", "routeTables", "internetGateways", "securityGroups", "instances")) {
			assertThat(left.path(kind)).as(kind + " left after destroy").isEmpty();
		}
		assertThat(this.aws.terraform(COMMAND, "state", "list").output()).isBlank();
	}

	private void theEmulatorHoldsTheLab(JsonNode inventory, JsonNode outputs) {
		assertThat(inventory.path("vpcs")).hasSize(1);
		assertThat(inventory.path("vpcs").get(0).path("cidr").asText()).isEqualTo("10.42.0.0/16");
		assertThat(inventory.path("subnets")).hasSize(1);
		JsonNode subnet = inventory.path("subnets").get(0);
		assertThat(subnet.path("cidr").asText()).isEqualTo("10.42.1.0/24");
		assertThat(subnet.path("zone").asText()).isEqualTo(EmulatedAws.REGION + "a");
		assertThat(inventory.path("internetGateways")).hasSize(1);
		String gateway = inventory.path("internetGateways").get(0).asText();
		// The subnet's route table sends everything else to the gateway.
		JsonNode table = null;
		for (JsonNode candidate : inventory.path("routeTables")) {
			if (candidate.path("subnets").toString().contains(subnet.path("id").asText())) {
				table = candidate;
			}
		}
		assertThat(table).as("a route table associated with the subnet").isNotNull();
		assertThat(table.path("routes").toString()).contains("{\"cidr\":\"0.0.0.0/0\",\"gateway\":\"" + gateway + "\"}");

		JsonNode lab = null;
		for (JsonNode group : inventory.path("securityGroups")) {
			if (group.path("name").asText().equals("default")) {
				assertThat(group.path("ingress")).as("the default group keeps no rule").isEmpty();
				assertThat(group.path("egress").asInt()).as("the default group keeps no rule").isZero();
			}
			else {
				lab = group;
			}
		}
		assertThat(lab).isNotNull();
		String self = lab.path("id").asText();
		List<JsonNode> ingress = new ArrayList<>();
		lab.path("ingress").forEach(ingress::add);
		// SSH, the services, their management ports; and the database set's PostgreSQL, services and management ports.
		assertThat(ingress).hasSize(6);
		JsonNode ssh = ingress.stream().filter(rule -> rule.path("from").asInt() == 22).findFirst().orElseThrow();
		assertThat(ssh.path("cidrs").toString()).isEqualTo("[\"203.0.113.7/32\"]");
		assertThat(ssh.path("groups").toString()).isEqualTo("[\"" + self + "\"]");
		JsonNode services = ingress.stream().filter(rule -> rule.path("from").asInt() == 7000).findFirst().orElseThrow();
		assertThat(services.path("to").asInt()).isEqualTo(Variant.ALL.stream().mapToInt(Variant::port).max().orElseThrow());
		assertThat(services.path("cidrs")).as("service ports never open to an address range").isEmpty();
		assertThat(services.path("groups").toString()).isEqualTo("[\"" + self + "\"]");
		// Each proxy's health and metrics on its port + 1000: where the runner scrapes, inside the group only.
		JsonNode management = ingress.stream().filter(rule -> rule.path("from").asInt() == Variant.ALL.stream().mapToInt(Variant::managementPort).min()
			.orElseThrow()).findFirst().orElseThrow();
		assertThat(management.path("to").asInt()).isEqualTo(Variant.ALL.stream().mapToInt(Variant::managementPort).max().orElseThrow());
		assertThat(management.path("cidrs")).as("management ports never open to an address range").isEmpty();
		assertThat(management.path("groups").toString()).isEqualTo("[\"" + self + "\"]");
		// The database set: PostgreSQL, its services and their management ports, each reachable from the group alone.
		int dbFirst = DB_PORTS.values().stream().mapToInt(Integer::intValue).min().orElseThrow();
		int dbLast = DB_PORTS.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
		for (int[] range : List.of(new int[] { 5432, 5432 }, new int[] { dbFirst, dbLast }, new int[] { dbFirst + 1000, dbLast + 1000 })) {
			JsonNode rule = ingress.stream().filter(r -> r.path("from").asInt() == range[0]).findFirst().orElseThrow();
			assertThat(rule.path("to").asInt()).as("port " + range[0]).isEqualTo(range[1]);
			assertThat(rule.path("cidrs")).as("port " + range[0] + " never open to an address range").isEmpty();
			assertThat(rule.path("groups").toString()).isEqualTo("[\"" + self + "\"]");
		}
		String database = outputs.path("database_url").path("value").asText();
		assertThat(database).startsWith("jdbc:postgresql://10.42.1.").endsWith(":5432/lab");
		String databaseIp = database.substring("jdbc:postgresql://".length(), database.lastIndexOf(':'));

		Map<String, Integer> roles = new LinkedHashMap<>();
		Set<String> variants = new TreeSet<>();
		for (JsonNode instance : inventory.path("instances")) {
			String role = instance.path("tags").path("Role").asText();
			roles.merge(role, 1, Integer::sum);
			assertThat(instance.path("httpTokens").asText()).as("IMDSv2 required").isEqualTo("required");
			assertThat(instance.path("volumes")).isNotEmpty();
			instance.path("volumes").forEach(volume -> assertThat(volume.path("encrypted").asBoolean()).as("root volume encrypted").isTrue());
			assertThat(instance.path("securityGroups").toString()).isEqualTo("[\"" + self + "\"]");
			assertThat(instance.path("keyName").asText()).isEqualTo("lab-operator");
			assertThat(instance.path("subnet").asText()).isEqualTo(subnet.path("id").asText());
			assertThat(instance.path("tags").path("Project").asText()).isEqualTo("loom-lab");
			String userData = instance.path("userData").asText();
			switch (role) {
				case "proxy" -> {
					String variant = instance.path("tags").path("Variant").asText();
					variants.add(variant);
					assertThat(instance.path("type").asText()).isEqualTo("t2.micro");
					int port = Variant.ALL.stream().filter(v -> v.name().equals(variant)).findFirst().orElseThrow().port();
					// The proxy's unit runs its own jar on its own port, health and metrics on port + 1000, calling the
					// downstream at its private address.
					assertThat(userData).contains("ExecStart=/usr/bin/java  -jar /opt/lab/" + variant + ".jar --server.port=" + port
							+ " --management.server.port=" + (port + 1000) + " --lab.downstream.base-url="
							+ outputs.path("downstream_url").path("value").asText());
				}
				case "downstream" -> {
					assertThat(instance.path("type").asText()).isEqualTo("t2.medium");
					assertThat(userData).contains("ExecStart=/usr/bin/java  -jar /opt/lab/downstream-delay-service.jar --server.port=7000");
				}
				case "database" -> {
					assertThat(instance.path("type").asText()).isEqualTo("t3.medium");
					// Ubuntu's PostgreSQL for the subnet, a connection for every service's pool of 10 and 10 more, its database.
					assertThat(userData).contains("apt_get install -y postgresql").contains("max_connections = 50")
						.contains("host lab lab 10.42.1.0/24 trust").contains("CREATE DATABASE lab OWNER lab");
				}
				case "db-service" -> {
					String service = instance.path("tags").path("Variant").asText();
					variants.add(service);
					assertThat(instance.path("type").asText()).isEqualTo("t2.micro");
					int port = DB_PORTS.get(service);
					assertThat(userData).contains("ExecStart=/usr/bin/java  -jar /opt/lab/" + service + ".jar --server.port=" + port
							+ " --management.server.port=" + (port + 1000) + " --lab.db.host=" + databaseIp + " --lab.db.pool-size=10");
				}
				case "injector" -> {
					assertThat(instance.path("type").asText()).isEqualTo("c5.xlarge");
					assertThat(userData).contains("apt_get install -y temurin-25-jdk");
				}
				default -> throw new AssertionError("an instance of no known role: " + instance);
			}
		}
		assertThat(roles).containsExactlyInAnyOrderEntriesOf(Map.of("proxy", Variant.names().size(), "downstream", 1, "injector", 1, "database", 1,
				"db-service", DB_SET.size()));
		List<String> deployed = new ArrayList<>(Variant.names());
		deployed.addAll(DB_SET);
		assertThat(variants).containsExactlyInAnyOrderElementsOf(deployed);
	}

	/** Every instance's user data, as the emulator received it: {@code bash -n} and shellcheck find nothing. */
	private void everyUserDataPassesBashAndShellcheck(JsonNode inventory) throws Exception {
		String shellcheck = Shellcheck.path(OUT);
		Path scripts = Files.createDirectories(OUT.resolve("user-data"));
		for (JsonNode instance : inventory.path("instances")) {
			Path script = scripts.resolve(instance.path("tags").path("Name").asText() + ".sh");
			Files.writeString(script, instance.path("userData").asText());
			Commands.Result syntax = this.aws.run(List.of("bash", "-n", script.toString()), Duration.ofSeconds(30));
			assertThat(syntax.exit()).as(script + ": " + syntax).isZero();
			Commands.Result lint = this.aws.run(List.of(shellcheck, "--severity=style", script.toString()), Duration.ofSeconds(60));
			assertThat(lint.exit()).as(script + ": " + lint).isZero();
		}
	}

	@Test
	void anArgumentTheProviderDoesNotKnowFailsValidateWithItsMessage() throws Exception {
		Commands.Result validate = broken("unknown-argument", "  enable_dns_hostnames = true\n", "  enable_dns_hostnames = true\n  bogus_argument = 1\n",
				"validate", "-no-color");
		assertThat(validate.exit()).isNotZero();
		assertThat(validate.output()).contains("Error: Unsupported argument").contains("An argument named \"bogus_argument\" is not expected here.");
	}

	@Test
	void anApostropheInARuleDescriptionFailsThePlanWithTheProvidersMessage() throws Exception {
		Commands.Result plan = broken("apostrophe", "description = \"SSH from the operator only\"",
				"description = \"SSH from the operator's address only\"", "plan", "-input=false", "-no-color");
		assertThat(plan.exit()).isNotZero();
		// The provider's own validator (the EC2 API's characters), before any call to the API.
		assertThat(plan.output()).contains("\"ingress.0.description\" doesn't comply with restrictions")
			.contains("\"SSH from the operator's address only\"");
	}

	/** A copy of the emulated configuration with one replacement in main.tf, initialised, and one command's result. */
	private Commands.Result broken(String name, String from, String to, String... command) throws Exception {
		Path copy = OUT.resolve(name);
		Commands.deleteTree(copy);
		Files.createDirectories(copy);
		// The emulated copy as it stands (its override and variables included), initialised again below.
		Commands.copyTree(this.aws.config, copy, file -> !EmulatedAws.isWorkingState(file));
		String main = Files.readString(copy.resolve("main.tf"));
		assertThat(main).contains(from);
		Files.writeString(copy.resolve("main.tf"), main.replace(from, to));
		List<String> init = List.of("terraform", "-chdir=" + copy, "init", "-input=false", "-no-color");
		assertThat(this.aws.run(init, COMMAND).exit()).isZero();
		List<String> run = new ArrayList<>(List.of("terraform", "-chdir=" + copy));
		run.addAll(List.of(command));
		return this.aws.run(run, COMMAND);
	}

	/** The top-level attributes a planned change changes. */
	private static List<String> changedAttributes(JsonNode change) {
		JsonNode before = change.path("change").path("before");
		JsonNode after = change.path("change").path("after");
		Set<String> names = new TreeSet<>();
		before.fieldNames().forEachRemaining(names::add);
		after.fieldNames().forEachRemaining(names::add);
		return names.stream().filter(name -> !before.path(name).equals(after.path(name))).toList();
	}

}
