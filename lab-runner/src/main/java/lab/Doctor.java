package lab;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import lab.launch.Storage;
import lab.plan.Host;
import lab.plan.RunPlan;
import lab.plan.Variant;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Every host check a run depends on, each with its fix. Exit code 1 when one fails. */
@Command(name = "doctor", mixinStandardHelpOptions = true, description = "Check this host for the lab.")
final class Doctor implements Callable<Integer> {

	@CommandLine.Spec
	CommandLine.Model.CommandSpec spec;

	private int failures;

	private PrintWriter out;

	@Override
	public Integer call() {
		this.out = this.spec.commandLine().getOut();
		Host host = Host.read();
		int java = Runtime.version().feature();
		check(java >= 21, "JDK " + Runtime.version() + " at " + System.getProperty("java.home"), "install a JDK 21+ (25 recommended) or set JAVA_HOME");
		check(works("mvn", "-v"), "Maven on PATH", "apt-get install maven");
		check(host.cores() >= 2, host.cores() + " cores", "the t2-micro profile needs 2+ cores; use --profile unconstrained");
		check(works("taskset", "-V"), "taskset (util-linux) for pinning", "apt-get install util-linux");
		check(works(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), "-h"), "jcmd for heap histograms", "use a full JDK, not a JRE");
		check(host.nofileHard() >= 20_000, "nofile soft " + host.nofileSoft() + " / hard " + host.nofileHard() + ": up to "
				+ host.maxUsers() + " users per proxy (about 2 descriptors each)", "raise the hard limit (limits.conf, LimitNOFILE=) to 65536+; levels above it run capped at that many users, and say so");
		check(host.somaxconn() >= 4096, "net.core.somaxconn " + host.somaxconn(), "sysctl -w net.core.somaxconn=4096 (Tomcat's accept-count is capped by it)");
		String[] range = host.portRange().split("\\s+");
		// The downstream's 7000 and the variants' own ports (variants.yml).
		int lowest = 7000;
		int highest = Math.max(lowest, Variant.ALL.stream().mapToInt(Variant::port).max().orElse(lowest));
		String ports = lowest + "-" + highest;
		boolean clear = range.length == 2 && (Integer.parseInt(range[0]) > highest || Integer.parseInt(range[1]) < lowest);
		check(clear, "ephemeral port range " + host.portRange() + (clear ? " is clear of the default ports " + ports
				: " covers the default ports " + ports + ": the runner uses free ports, but services started by hand may collide"),
				"sysctl -w net.ipv4.ip_local_port_range='32768 60999'");
		for (String module : Variant.names()) {
			check(Files.isRegularFile(RunPlan.jar(Commands.root(), module)), module + " built", "./lab build");
		}
		check(Files.isRegularFile(RunPlan.jar(Commands.root(), Variant.DOWNSTREAM)), Variant.DOWNSTREAM + " built", "./lab build");
		check(Files.isRegularFile(Commands.root().resolve("gatling/target/classpath.txt")), "gatling built", "./lab build");
		Path results = Commands.root().resolve("results");
		long free = -1;
		String disk;
		try {
			disk = Storage.describe(results);
			free = Storage.freeBytes(results);
		}
		catch (java.io.IOException ex) {
			disk = "unknown (" + ex.getMessage() + ")";
		}
		check(free >= (1L << 30), "results disk: " + disk + " (a default run writes a few hundred MiB; ./lab run checks its own plan before "
				+ "it starts and stops if the disk fills)", "free space there, or write results elsewhere with ./lab run --out DIR");
		this.out.println((this.failures == 0) ? "doctor: all checks pass" : "doctor: " + this.failures + " check(s) need attention");
		return (this.failures == 0) ? 0 : 1;
	}

	private void check(boolean ok, String what, String fix) {
		this.out.println((ok ? "  ok    " : "  FIX   ") + what + (ok ? "" : "\n          → " + fix));
		if (!ok) {
			this.failures++;
		}
	}

	private static boolean works(String... command) {
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
			return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
		}
		catch (Exception ex) {
			return false;
		}
	}

}
