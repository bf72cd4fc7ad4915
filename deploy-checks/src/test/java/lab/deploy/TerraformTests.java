package lab.deploy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import lab.plan.Variant;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * terraform/ checked offline: formatting by terraform itself, checkov, and the structure the lab relies on read from the
 * HCL text. The configuration loaded, planned and applied by the real AWS provider: {@link TerraformProviderTests}.
 */
class TerraformTests {

	static String read(String file) throws Exception {
		return Files.readString(Repo.root().resolve("terraform").resolve(file));
	}

	@Test
	void terraformFmtFindsNothingToChange() throws Exception {
		Assumptions.assumeTrue(runs("terraform", "version"), "SKIPPED: terraform is not installed");
		Path log = Files.createTempFile(Files.createDirectories(Path.of("target")), "terraform-fmt", ".log");
		Process fmt = new ProcessBuilder("terraform", "fmt", "-check", "-recursive", "-diff", Repo.root().resolve("terraform").toString())
			.redirectErrorStream(true).redirectOutput(log.toFile()).start();
		assertThat(fmt.waitFor(60, TimeUnit.SECONDS)).isTrue();
		assertThat(fmt.exitValue()).as(Files.readString(log)).isZero();
	}

	/**
	 * checkov's static security scan, offline ({@code --skip-download}): no failed check. Each check the lab skips
	 * carries its reason in a {@code #checkov:skip} comment next to the resource (tested below). checkov comes from
	 * {@code LAB_CHECKOV}, {@code .tools/checkov} (where .ci/run installs it from PyPI) or the PATH.
	 */
	@Test
	void checkovFindsNoFailedCheck() throws Exception {
		String checkov = System.getenv("LAB_CHECKOV");
		if (checkov == null) {
			Path local = Repo.root().resolve(".tools/checkov/bin/checkov");
			checkov = Files.isExecutable(local) ? local.toString() : "checkov";
		}
		Assumptions.assumeTrue(runs(checkov, "--version"),
				"SKIPPED: checkov is not installed (python3 -m venv .tools/checkov && .tools/checkov/bin/pip install checkov==3.3.30)");
		Path log = Files.createTempFile(Files.createDirectories(Path.of("target")), "checkov", ".log");
		Process scan = new ProcessBuilder(checkov, "-d", Repo.root().resolve("terraform").toString(), "--framework", "terraform",
				"--skip-download", "--compact", "--quiet")
			.redirectErrorStream(true).redirectOutput(log.toFile()).start();
		assertThat(scan.waitFor(5, TimeUnit.MINUTES)).isTrue();
		String output = Files.readString(log);
		assertThat(scan.exitValue()).as(output).isZero();
		assertThat(output).contains("Failed checks: 0");
	}

	@Test
	void instanceTypesAreDataByRoleWithTheArticlesDefaults() throws Exception {
		String variables = read("variables.tf");
		assertThat(variables).containsPattern("proxy\\s*=\\s*\"t2.micro\"").containsPattern("downstream\\s*=\\s*\"t2.medium\"")
			.containsPattern("injector\\s*=\\s*\"c5.xlarge\"").containsPattern("database\\s*=\\s*\"t3.medium\"");
		// Every variable is typed and described; operator_cidr has no default.
		for (String block : variables.split("variable \"")) {
			if (!block.isBlank()) {
				assertThat(block).as(block.substring(0, block.indexOf('"'))).contains("description =").contains("type ");
			}
		}
		String operator = variables.substring(variables.indexOf("variable \"operator_cidr\""));
		assertThat(operator.substring(0, operator.indexOf("\n}"))).doesNotContainPattern("(?m)^\\s*default\\s*=");
		assertThat(variables).contains(String.join("\", \"", Variant.names()));
	}

	@Test
	void servicePortsStayInsideTheGroupAndSshComesOnlyFromTheOperatorOrTheGroup() throws Exception {
		String main = read("main.tf");
		String group = main.substring(main.indexOf("resource \"aws_security_group\" \"lab\""));
		group = group.substring(0, group.indexOf("\n}\n"));
		List<String> ingress = Pattern.compile("ingress \\{[^}]*}").matcher(group).results().map(m -> m.group()).toList();
		assertThat(ingress).hasSize(4);
		assertThat(ingress.get(0)).contains("from_port   = 22").contains("cidr_blocks = [var.operator_cidr]");
		// The runner on the first injector drives the others: SSH inside the group, never from anywhere else.
		assertThat(ingress.get(1)).contains("from_port   = 22").contains("self        = true").doesNotContain("cidr_blocks");
		assertThat(ingress.get(2)).contains("from_port   = 7000").contains("to_port     = max(values(local.service_ports)...)").contains("self        = true")
			.doesNotContain("cidr_blocks");
		// The proxies' management ports (health, metrics), where the runner scrapes: inside the group only.
		assertThat(ingress.get(3)).contains("from_port   = min(local.all_management_ports...)")
			.contains("to_port     = max(local.all_management_ports...)").contains("self        = true").doesNotContain("cidr_blocks");
		assertThat(main).contains("--management.server.port=${local.management_ports[each.key]}");
		// The database set's ports (PostgreSQL, its services, their management) only when it is deployed, inside the group.
		String dynamic = group.substring(group.indexOf("dynamic \"ingress\""));
		assertThat(dynamic.substring(0, dynamic.indexOf("\n  }\n"))).contains("for_each = local.db_ingress").contains("self        = true")
			.doesNotContain("cidr_blocks");
		assertThat(main).contains("\"PostgreSQL of the database set, only between the lab instances\"").contains("= [5432, 5432]");
	}

	@Test
	void everyInstanceRequiresImdsV2AndEncryptsItsRootVolume() throws Exception {
		String main = read("main.tf");
		long instances = Pattern.compile("resource \"aws_instance\"").matcher(main).results().count();
		assertThat(instances).isEqualTo(5);
		assertThat(Pattern.compile("http_tokens\\s*=\\s*\"required\"").matcher(main).results().count()).isEqualTo(instances);
		assertThat(Pattern.compile("encrypted\\s*=\\s*true").matcher(main).results().count()).isEqualTo(instances);
		assertThat(Pattern.compile("cpu_credits\\s*=\\s*var.t2_cpu_credits").matcher(main).results().count()).as("t2 credit mode stated").isEqualTo(3);
		// Every skipped static-analysis check carries its reason.
		Pattern.compile("#checkov:skip=([A-Z0-9_]+)(:?)(.*)").matcher(main).results()
			.forEach(skip -> assertThat(skip.group(3).trim()).as(skip.group(1) + " justified").hasSizeGreaterThan(20));
		assertThat(Files.exists(Repo.root().resolve("terraform/terraform.tfvars.example"))).isTrue();
	}

	/**
	 * The characters the EC2 API allows in a security group's and a rule's description, as the AWS provider (6.x,
	 * {@code validSecurityGroupRuleDescription}) checks them before any call: no apostrophe, no quotes, at most 255.
	 * {@code terraform plan} stops on the first one that breaks it.
	 */
	static final Pattern EC2_DESCRIPTION = Pattern.compile("[A-Za-z0-9 ._\\-:/()#,@\\[\\]+=&;{}!$*]{0,255}");

	@Test
	void everySecurityGroupDescriptionUsesOnlyWhatTheEc2ApiAccepts() throws Exception {
		String main = read("main.tf");
		List<String> groups = Pattern.compile("(?s)resource \"aws_(default_)?security_group\" .*?\n}\n").matcher(main).results()
			.map(m -> m.group()).toList();
		assertThat(groups).hasSizeGreaterThanOrEqualTo(1);
		List<String> descriptions = groups.stream().flatMap(group -> Pattern.compile("description\\s*=\\s*\"([^\"]*)\"").matcher(group).results()
			.map(m -> m.group(1))).toList();
		assertThat(descriptions).hasSizeGreaterThanOrEqualTo(4);
		assertThat(descriptions).allSatisfy(d -> assertThat(d).as("a description the provider rejects").matches(EC2_DESCRIPTION));
	}

	@Test
	void everyCidrIsANetworkAddressAndTheOperatorsIsBounded() throws Exception {
		// The provider checks CIDRs as network addresses (host bits zero): "10.0.1.5/24" stops the plan.
		for (String file : List.of("main.tf", "variables.tf", "terraform.tfvars.example")) {
			Pattern.compile("\"(\\d+)\\.(\\d+)\\.(\\d+)\\.(\\d+)/(\\d+)\"").matcher(read(file)).results().forEach(cidr -> {
				long address = 0;
				for (int i = 1; i <= 4; i++) {
					address = (address << 8) | Long.parseLong(cidr.group(i));
				}
				int prefix = Integer.parseInt(cidr.group(5));
				long hostBits = (prefix == 0) ? 0xFFFFFFFFL : (1L << (32 - prefix)) - 1;
				assertThat(address & hostBits).as(file + ": " + cidr.group() + " is a network address").isZero();
			});
		}
		String variables = read("variables.tf");
		String operator = variables.substring(variables.indexOf("variable \"operator_cidr\""));
		operator = operator.substring(0, operator.indexOf("\n}"));
		// Checked when the variable is read, before any resource: a network address, and no wider than /16.
		assertThat(operator).contains("cidrhost(var.operator_cidr, 0) == split(\"/\", var.operator_cidr)[0]")
			.contains("tonumber(split(\"/\", var.operator_cidr)[1]) >= 16");
	}

	@Test
	void instancesStartAfterTheRouteOutExistsAndChangeOnlyOnPurpose() throws Exception {
		String main = read("main.tf");
		List<String> instances = Pattern.compile("(?s)resource \"aws_instance\" \"(\\w+)\" \\{.*?\n}\n").matcher(main).results()
			.map(m -> m.group()).toList();
		assertThat(instances).hasSize(5);
		for (String instance : instances) {
			String name = instance.substring(0, instance.indexOf('{'));
			// User data installs packages at first boot: without the route to the gateway, apt fails and the boot with it.
			assertThat(instance).as(name).containsPattern("depends_on\\s*=\\s*\\[aws_route_table_association.lab\\]");
			// A newer Ubuntu image must not replace running instances at the next apply.
			assertThat(instance).as(name).containsPattern("ignore_changes\\s*=\\s*\\[ami\\]");
		}
		// The downstream's address is in the proxies' user data, the database's in its services': when it changes, they are replaced.
		for (String role : List.of("\"proxy\"", "\"db_service\"")) {
			String instance = instances.stream().filter(i -> i.contains(role)).findFirst().orElseThrow();
			assertThat(instance).as(role).containsPattern("user_data_replace_on_change\\s*=\\s*true");
		}
	}

	@Test
	void userDataWaitsForTheDpkgLockAndUnitsSayWhatIsMissing() throws Exception {
		for (String template : List.of("templates/service.sh.tftpl", "templates/injector.sh.tftpl", "templates/database.sh.tftpl")) {
			String script = read(template);
			// Unattended upgrades hold the dpkg lock at first boot: every apt-get waits for it instead of failing.
			assertThat(script).as(template).contains("export DEBIAN_FRONTEND=noninteractive");
			assertThat(script).as(template).contains("apt_get() { apt-get -o DPkg::Lock::Timeout=")
				.doesNotContainPattern("(?m)^\\s*apt-get ").containsPattern("(?m)^apt_get install");
		}
		String unit = read("templates/service.sh.tftpl");
		assertThat(unit).contains("Wants=network-online.target").contains("After=network-online.target")
			.contains("WorkingDirectory=/opt/lab").contains("ExecStartPre=");
	}

	@Test
	void gitKeepsOutEveryFileThatHoldsTheOperatorsValuesOrAPlan() throws Exception {
		List<String> ignored = Files.readAllLines(Repo.root().resolve(".gitignore"));
		assertThat(ignored).contains("terraform.tfvars", "*.auto.tfvars", "*.tfvars.json", "*.tfplan", "override.tf", "*_override.tf", "*.tfstate");
	}

	private static boolean runs(String... command) {
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
			return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
		}
		catch (Exception ex) {
			return false;
		}
	}

}
