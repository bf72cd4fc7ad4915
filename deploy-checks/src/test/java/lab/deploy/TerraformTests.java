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
 * terraform/ checked offline: formatting by terraform itself, and the structure the lab relies on read from the
 * HCL text. {@code terraform validate} needs the AWS provider downloaded, which this machine cannot do.
 */
class TerraformTests {

	static String read(String file) throws Exception {
		return Files.readString(Repo.root().resolve("terraform").resolve(file));
	}

	@Test
	void terraformFmtFindsNothingToChange() throws Exception {
		Assumptions.assumeTrue(runs("terraform", "version"), "SKIPPED: terraform is not installed");
		Path log = Files.createTempFile("terraform-fmt", ".log");
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
		Path log = Files.createTempFile("checkov", ".log");
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
			.containsPattern("injector\\s*=\\s*\"c5.xlarge\"");
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
		assertThat(ingress).hasSize(3);
		assertThat(ingress.get(0)).contains("from_port   = 22").contains("cidr_blocks = [var.operator_cidr]");
		// The runner on the first injector drives the others: SSH inside the group, never from anywhere else.
		assertThat(ingress.get(1)).contains("from_port   = 22").contains("self        = true").doesNotContain("cidr_blocks");
		assertThat(ingress.get(2)).contains("from_port   = 7000").contains("to_port     = " + Variant.ALL.stream().mapToInt(Variant::port).max().orElseThrow()).contains("self        = true")
			.doesNotContain("cidr_blocks");
	}

	@Test
	void everyInstanceRequiresImdsV2AndEncryptsItsRootVolume() throws Exception {
		String main = read("main.tf");
		long instances = Pattern.compile("resource \"aws_instance\"").matcher(main).results().count();
		assertThat(instances).isEqualTo(3);
		assertThat(Pattern.compile("http_tokens\\s*=\\s*\"required\"").matcher(main).results().count()).isEqualTo(instances);
		assertThat(Pattern.compile("encrypted\\s*=\\s*true").matcher(main).results().count()).isEqualTo(instances);
		assertThat(Pattern.compile("cpu_credits\\s*=\\s*var.t2_cpu_credits").matcher(main).results().count()).as("t2 credit mode stated").isEqualTo(2);
		// Every skipped static-analysis check carries its reason.
		Pattern.compile("#checkov:skip=([A-Z0-9_]+)(:?)(.*)").matcher(main).results()
			.forEach(skip -> assertThat(skip.group(3).trim()).as(skip.group(1) + " justified").hasSizeGreaterThan(20));
		assertThat(Files.exists(Repo.root().resolve("terraform/terraform.tfvars.example"))).isTrue();
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
