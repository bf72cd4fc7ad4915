package lab.deploy;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The real AWS provider against moto's EC2 and STS on a free loopback port: a copy of {@code terraform/} with the
 * emulator's endpoints and fake credentials in an override file of the copy (never in the committed configuration),
 * and a Terraform CLI configuration that installs the provider from the lab's own mirror (scripts/aws-provider.sh),
 * offline. Everything is written under {@code dir}; moto is stopped by {@link #close}.
 */
final class EmulatedAws implements AutoCloseable {

	static final String REGION = "eu-west-1";

	/**
	 * What moto 5.2.5 lacks, set in the copy's variables: it does not implement MonitorInstances (with detailed
	 * monitoring on, the provider retries until its timeout). Not an override of the instances: an override file that
	 * names a resource hides the errors of that resource in the committed file (seen: an unknown argument then
	 * validated).
	 */
	static final Map<String, String> EMULATOR_GAPS = Map.of("detailed_monitoring", "false");

	final Path dir;

	final Path config;

	final Path log;

	final Map<String, String> env = new LinkedHashMap<>();

	final int port;

	private final Process moto;

	private final Path bin;

	private EmulatedAws(Path dir, Path bin, int port, Process moto) {
		this.dir = dir;
		this.config = dir.resolve("terraform");
		this.log = dir.resolve("terraform.log");
		this.bin = bin;
		this.port = port;
		this.moto = moto;
	}

	/**
	 * Why this machine cannot run the emulated AWS, or null: terraform, Go (to build the provider) and python3 (moto) are
	 * needed. Printed by the tests that skip.
	 */
	static String whyNot() {
		for (String tool : List.of("terraform", "go", "python3")) {
			if (!Commands.onPath(tool)) {
				return tool + " is not installed (the provider is built with Go from the Go module proxy, moto runs on python3)";
			}
		}
		return null;
	}

	/**
	 * Builds or reuses the provider, installs or reuses moto, starts moto, copies {@code terraform/} under {@code dir}
	 * with the emulator's override, and writes {@code terraform.tfvars} from {@code variables}.
	 */
	static EmulatedAws start(Path dir, Map<String, String> variables) throws Exception {
		Commands.deleteTree(dir);
		Files.createDirectories(dir);
		Path mirror = Path.of(Commands.lastLine(script(dir, "aws-provider.sh", Duration.ofMinutes(40))));
		Path bin = Path.of(Commands.lastLine(script(dir, "moto.sh", Duration.ofMinutes(10))));
		Path amis = dir.resolve("amis.json");
		// moto carries no Ubuntu 24.04 image: one, as Canonical names and owns it, so data.aws_ami finds it.
		Files.writeString(amis, """
				[{"ami_id": "ami-0a1b2c3d4e5f60718", "state": "available", "public": true, "owner_id": "099720109477",
				  "image_location": "amazon/ubuntu/images/hvm-ssd-gp3/ubuntu-noble-24.04-amd64-server-20261101",
				  "sriov": "simple", "root_device_type": "ebs", "root_device_name": "/dev/sda1",
				  "description": "Canonical, Ubuntu, 24.04, amd64 noble image", "image_type": "machine", "platform": null,
				  "architecture": "x86_64", "name": "ubuntu/images/hvm-ssd-gp3/ubuntu-noble-24.04-amd64-server-20261101",
				  "virtualization_type": "hvm", "hypervisor": "xen"}]
				""");
		int port = Commands.freePort();
		ProcessBuilder builder = new ProcessBuilder(bin.resolve("moto_server").toString(), "-H", "127.0.0.1", "-p", String.valueOf(port))
			.redirectErrorStream(true).redirectOutput(dir.resolve("moto.log").toFile());
		builder.environment().put("MOTO_AMIS_PATH", amis.toString());
		Process moto = builder.start();
		EmulatedAws aws = new EmulatedAws(dir, bin, port, moto);
		try {
			aws.awaitPort(Duration.ofSeconds(60));
			aws.copyConfiguration(mirror, variables);
		}
		catch (Exception ex) {
			aws.close();
			throw ex;
		}
		return aws;
	}

	String endpoint() {
		return "http://127.0.0.1:" + this.port;
	}

	private void copyConfiguration(Path mirror, Map<String, String> variables) throws IOException {
		// The committed configuration, without what Terraform or an operator wrote beside it (state, variables).
		Commands.copyTree(Repo.root().resolve("terraform"), this.config, file -> !isWorkingState(file) && !file.toString().endsWith(".tfvars"));
		// Endpoints and fake credentials of the emulator: an override file Terraform merges into the copy's provider block.
		Files.writeString(this.config.resolve("emulator_override.tf"), """
				provider "aws" {
				  access_key                  = "testing"
				  secret_key                  = "testing"
				  skip_credentials_validation = true
				  skip_metadata_api_check     = true
				  endpoints {
				    ec2 = "%1$s"
				    sts = "%1$s"
				  }
				}
				""".formatted(endpoint()));
		StringBuilder tfvars = new StringBuilder();
		Map<String, String> all = new LinkedHashMap<>(variables);
		all.putAll(EMULATOR_GAPS);
		all.forEach((name, value) -> tfvars.append(name).append(" = ").append(value).append('\n'));
		Files.writeString(this.config.resolve("terraform.tfvars"), tfvars);
		// The provider from the lab's mirror only: terraform init never reaches for a registry.
		Path cli = this.dir.resolve("terraformrc");
		Files.writeString(cli, """
				provider_installation {
				  filesystem_mirror {
				    path    = "%s"
				    include = ["registry.terraform.io/hashicorp/aws"]
				  }
				}
				""".formatted(mirror));
		this.env.put("TF_CLI_CONFIG_FILE", cli.toString());
		this.env.put("TF_IN_AUTOMATION", "1");
		this.env.put("CHECKPOINT_DISABLE", "1");
		this.env.put("AWS_EC2_METADATA_DISABLED", "true");
	}

	/** One terraform command in the copy: its exit code and what it printed (also appended to {@link #log}). */
	Commands.Result terraform(Duration timeout, String... arguments) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>(List.of("terraform", "-chdir=" + this.config));
		command.addAll(List.of(arguments));
		return run(command, timeout);
	}

	/** The emulator's inventory, asked of moto with boto3 (resources/aws/ec2-inventory.py). */
	JsonNode inventory() throws Exception {
		Path script = Path.of(EmulatedAws.class.getResource("/aws/ec2-inventory.py").toURI());
		Commands.Result result = run(List.of(this.bin.resolve("python").toString(), script.toString(), endpoint(), REGION), Duration.ofMinutes(2));
		if (result.exit() != 0) {
			throw new IllegalStateException("the inventory script failed: " + result.output());
		}
		return Repo.json.readTree(result.output());
	}

	/** A key pair in the emulator, as an operator would have imported it. */
	void importKeyPair(String name, Path publicKey) throws Exception {
		String code = "import boto3,sys; boto3.client('ec2', endpoint_url=sys.argv[1], region_name=sys.argv[2], aws_access_key_id='testing',"
				+ " aws_secret_access_key='testing').import_key_pair(KeyName=sys.argv[3], PublicKeyMaterial=open(sys.argv[4],'rb').read())";
		Commands.Result result = run(List.of(this.bin.resolve("python").toString(), "-c", code, endpoint(), REGION, name, publicKey.toString()),
				Duration.ofMinutes(1));
		if (result.exit() != 0) {
			throw new IllegalStateException("importing the key pair failed: " + result.output());
		}
	}

	/** What Terraform writes into a configuration's directory as it works: its providers and lock, state, plans. */
	static boolean isWorkingState(Path relative) {
		String name = relative.toString();
		return name.startsWith(".terraform") || name.contains("tfstate") || name.endsWith("tfplan");
	}

	/** A command with the emulator's environment, appended to {@link #log}. */
	Commands.Result run(List<String> command, Duration timeout) throws IOException, InterruptedException {
		return Commands.run(command, this.env, this.dir, this.log, timeout);
	}


	@Override
	public void close() throws InterruptedException {
		this.moto.destroy();
		if (!this.moto.waitFor(10, TimeUnit.SECONDS)) {
			this.moto.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
		}
	}

	private void awaitPort(Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() < deadline) {
			if (!this.moto.isAlive()) {
				throw new IllegalStateException("moto exited at start: see " + this.dir.resolve("moto.log"));
			}
			try (Socket socket = new Socket("127.0.0.1", this.port)) {
				return;
			}
			catch (IOException notYet) {
				Thread.sleep(200);
			}
		}
		throw new IllegalStateException("moto did not listen on " + this.port + " within " + timeout);
	}

	/** Runs scripts/NAME, its progress on stderr kept in dir/NAME.log; its stdout. */
	private static String script(Path dir, String name, Duration timeout) throws IOException, InterruptedException {
		Path err = dir.resolve(name + ".log");
		Process process = new ProcessBuilder(Repo.root().resolve("scripts").resolve(name).toString()).redirectError(err.toFile()).start();
		String out = new String(process.getInputStream().readAllBytes());
		if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
			process.destroyForcibly();
			throw new IllegalStateException(name + " did not finish within " + timeout + ": see " + err);
		}
		if (process.exitValue() != 0) {
			throw new IllegalStateException(name + " failed (exit " + process.exitValue() + "): " + Files.readString(err));
		}
		// The build's own lines (its time and size) reach the test's output.
		System.out.print(Files.readString(err).lines().filter(line -> line.startsWith("aws-provider: built") || line.startsWith("moto: installing"))
			.map(line -> line + "\n").reduce("", String::concat));
		return out;
	}





}
