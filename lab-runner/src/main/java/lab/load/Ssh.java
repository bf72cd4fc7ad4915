package lab.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import lab.launch.Children;
import lab.plan.PlanException;
import lab.layout.LevelDir;
import lab.layout.LoadParameters;

/**
 * An injector host reached with the operator's own {@code ssh} and {@code scp}: keys and users come from
 * {@code ~/.ssh/config} or {@code [user@]host}, extra options from {@code LAB_SSH_OPTIONS} (e.g.
 * {@code -i ~/.ssh/lab.pem}). Never asks for a password (BatchMode), accepts a new host key once. Everything
 * the lab puts there lives under {@code ~/loom-lab}.
 */
public record Ssh(String destination, List<String> options) {

	/** The lab's directory on an injector host, relative to the SSH user's home. */
	static final String HOME = "loom-lab";

	static final List<String> DEFAULT_OPTIONS = List.of("-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "-o",
			"StrictHostKeyChecking=accept-new", "-o", "ServerAliveInterval=15");

	public static Ssh to(String destination) {
		List<String> options = new ArrayList<>(DEFAULT_OPTIONS);
		String extra = System.getenv("LAB_SSH_OPTIONS");
		if (extra != null && !extra.isBlank()) {
			options.addAll(Arrays.asList(extra.trim().split("\\s+")));
		}
		return new Ssh(destination, List.copyOf(options));
	}

	/** What the runner needs to bring files of a finished remote run home. */
	@FunctionalInterface
	interface Fetch {

		void into() throws IOException, InterruptedException;

	}

	ProcessBuilder process(String remoteCommand) {
		List<String> command = new ArrayList<>(List.of("ssh"));
		command.addAll(this.options);
		command.addAll(List.of(this.destination, remoteCommand));
		return new ProcessBuilder(command);
	}

	/**
	 * Copies the simulation's classes and its classpath jars into {@code ~/loom-lab/gatling} and checks the host's
	 * {@code java} is 21 or newer. Once per run and host; a host that fails stops the run before anything starts.
	 */
	public void install(Path root) throws IOException, InterruptedException {
		String version = run(process("java -version 2>&1 | head -1; mkdir -p " + HOME + "/gatling/lib " + HOME + "/runs && rm -rf "
				+ HOME + "/gatling/classes"), "check java and prepare ~/" + HOME);
		if (!version.matches("(?s).*version \"(2[1-9]|[3-9][0-9])[.\"].*")) {
			throw new PlanException("injector " + this.destination + " has no Java 21+ on its PATH (it said: " + version.trim()
					+ "): install temurin-25-jdk there (the Terraform injector does)");
		}
		List<String> jars = Arrays.asList(Files.readString(root.resolve("gatling/target/classpath.txt")).trim().split(":"));
		List<String> copyClasses = new ArrayList<>(List.of("scp", "-q", "-r"));
		copyClasses.addAll(this.options);
		copyClasses.addAll(List.of(root.resolve("gatling/target/classes").toString(), this.destination + ":" + HOME + "/gatling/classes"));
		run(new ProcessBuilder(copyClasses), "copy the simulation");
		List<String> copyJars = new ArrayList<>(List.of("scp", "-q"));
		copyJars.addAll(this.options);
		copyJars.addAll(jars);
		copyJars.add(this.destination + ":" + HOME + "/gatling/lib/");
		run(new ProcessBuilder(copyJars), "copy Gatling's " + jars.size() + " jars");
	}

	/**
	 * The command line run on the host: descriptor limit raised to the hard one, bounded by {@code timeout}, files
	 * written to {@code runDir}. Every property is single-quoted: it reaches a remote shell.
	 */
	String gatlingCommand(List<String> jvmFlags, List<String> properties, String runDir, long timeoutSeconds) {
		List<String> java = new ArrayList<>(List.of("java"));
		java.addAll(jvmFlags);
		properties.forEach(property -> java.add("-D" + property));
		java.addAll(List.of("-D" + LoadParameters.OUT_DIR + "=" + runDir, "-cp", HOME + "/gatling/classes:" + HOME + "/gatling/lib/*"));
		java.addAll(GatlingRun.MAIN);
		java.addAll(List.of("-rf", runDir + "/gatling"));
		return "rm -rf " + quote(runDir) + " && mkdir -p " + quote(runDir) + " && ulimit -S -n \"$(ulimit -H -n)\" && exec timeout -k 10 "
				+ timeoutSeconds + " " + String.join(" ", java.stream().map(Ssh::quote).toList());
	}

	/** Brings {@code runDir} from the host into {@code dir} (tar over ssh), then removes it there. */
	void fetch(String runDir, Path dir) throws IOException, InterruptedException {
		ProcessBuilder pack = process("tar -C " + quote(runDir) + " -cf - . && rm -rf " + quote(runDir));
		// What either side says (nothing when all goes well) is kept as the evidence of a failed fetch.
		Path log = dir.resolve(LevelDir.FETCH_LOG);
		ProcessBuilder.Redirect append = ProcessBuilder.Redirect.appendTo(log.toFile());
		ProcessBuilder unpack = new ProcessBuilder("tar", "-C", dir.toString(), "-xf", "-").redirectOutput(append).redirectError(append);
		pack.redirectError(append);
		List<Process> pipeline = ProcessBuilder.startPipeline(List.of(pack, unpack));
		for (Process process : pipeline) {
			Children.register(process);
		}
		for (Process process : pipeline) {
			if (!process.waitFor(5, TimeUnit.MINUTES)) {
				Children.stop(process);
			}
			Children.stop(process);
		}
		if (Files.size(log) == 0) {
			Files.delete(log);
		}
	}

	static String quote(String word) {
		return "'" + word.replace("'", "'\\''") + "'";
	}

	private String run(ProcessBuilder builder, String what) throws IOException, InterruptedException {
		Process process = Children.register(builder.redirectErrorStream(true).start());
		String output = new String(process.getInputStream().readAllBytes());
		boolean ended = process.waitFor(10, TimeUnit.MINUTES);
		Children.stop(process);
		if (!ended || process.exitValue() != 0) {
			throw new PlanException("injector " + this.destination + ": could not " + what + " over SSH (" + output.trim()
					+ "): check `ssh " + this.destination + " true` works without a password (keys in ~/.ssh/config or LAB_SSH_OPTIONS)");
		}
		return output;
	}

}
