package lab.load;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import lab.launch.Children;
import lab.launch.Launch;

/**
 * One Gatling run in its own JVM (pinned to the injector's CPUs): the simulation writes its HTML report, latency
 * log and request counts into the level's directory; its console goes to {@code gatling.log}, and its progress
 * lines to the caller.
 */
public final class GatlingRun {

	/**
	 * Gatling needs the opens on JDK 17+ when launched outside its own tools. C1 only: each level starts a fresh
	 * injector JVM, and C2's warm-up took 60-100 % of the injector core for the first 20 s of a run here (measured
	 * at 2,000 rps: C2 settles at 11 % of a core after 20 s, C1 stays near 25 % from the 5th second), which would
	 * starve the downstream sharing that core and make short levels INVALID.
	 */
	public static final List<String> JVM_FLAGS = List.of("--add-opens=java.base/java.lang=ALL-UNNAMED",
			"--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1", "-Xms512m", "-Xmx4g");

	private final Process process;

	private final Thread reader;

	private GatlingRun(Process process, Thread reader) {
		this.process = process;
		this.reader = reader;
	}

	/**
	 * @param properties the simulation's -D parameters (baseUrl, shape, users, ...), without outDir
	 */
	public static GatlingRun start(Path root, Path java, List<String> properties, String cpus, Path dir,
			Consumer<String> progress) throws IOException {
		Files.createDirectories(dir);
		String classpath = root.resolve("gatling/target/classes") + ":"
				+ Files.readString(root.resolve("gatling/target/classpath.txt")).trim();
		List<String> command = new ArrayList<>(List.of(java.toString()));
		command.addAll(JVM_FLAGS);
		properties.forEach(property -> command.add("-D" + property));
		command.addAll(List.of("-DoutDir=" + dir, "-cp", classpath, "io.gatling.app.Gatling", "-s",
				"lab.gatling.AddressSimulation", "-rf", dir.resolve("gatling").toString()));
		Files.writeString(dir.resolve("gatling-command.txt"),
				String.join(" ", command).replace(classpath, "<gatling/target/classpath.txt>") + "\n");
		Process process = Launch.start(command, cpus, null);
		Thread reader = Thread.ofPlatform().daemon().name("gatling-output").start(() -> copy(process, dir.resolve("gatling.log"), progress));
		return new GatlingRun(process, reader);
	}

	private static void copy(Process process, Path log, Consumer<String> progress) {
		try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
				PrintWriter out = new PrintWriter(Files.newBufferedWriter(log), true)) {
			for (String line = in.readLine(); line != null; line = in.readLine()) {
				if (line.startsWith("LAB-PROGRESS")) {
					progress.accept(line);
				}
				else {
					out.println(line);
				}
			}
		}
		catch (IOException ex) {
			// the process went away; what was read is in the log
		}
	}

	public long pid() {
		return this.process.pid();
	}

	/** Waits up to {@code timeoutSeconds}, then stops it; returns the exit code (-1 when it had to be stopped). */
	public int await(long timeoutSeconds) throws InterruptedException {
		boolean ended = this.process.waitFor(timeoutSeconds, TimeUnit.SECONDS);
		if (!ended) {
			Children.stop(this.process);
		}
		this.reader.join(5_000);
		Children.stop(this.process);
		return ended ? this.process.exitValue() : -1;
	}

}
