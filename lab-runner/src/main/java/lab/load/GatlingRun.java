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
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import lab.launch.Children;
import lab.launch.Launch;
import lab.layout.LevelDir;
import lab.layout.LoadParameters;
import lab.layout.ProgressLine;
import lab.plan.HarnessFlags;

/**
 * One Gatling run in its own JVM (pinned to the injector's CPUs): the simulation writes its HTML report, latency
 * log and request counts into the level's directory; its console goes to {@code gatling.log}, and its progress
 * lines to the caller.
 */
public final class GatlingRun {

	/** The injector's JVM flags ({@link lab.plan.HarnessFlags#INJECTOR}). */
	public static final List<String> JVM_FLAGS = HarnessFlags.INJECTOR;

	/** The simulation's main class and Gatling's launcher. */
	static final List<String> MAIN = List.of("io.gatling.app.Gatling", "-s", "lab.gatling.AddressSimulation");

	private final Process process;

	private final Thread reader;

	/** Brings the files of a run on another host into the level's directory; null for a local run. */
	private final Ssh.Fetch fetch;

	/** The local JVM's classes and their archive, settled when it ends; null for a run on another host. */
	private final InjectorClasses classes;

	private GatlingRun(Process process, Thread reader, Ssh.Fetch fetch, InjectorClasses classes) {
		this.process = process;
		this.reader = reader;
		this.fetch = fetch;
		this.classes = classes;
	}

	/**
	 * @param properties the simulation's -D parameters (baseUrl, shape, users, ...), without outDir
	 */
	public static GatlingRun start(Path root, Path java, List<String> properties, String cpus, Path dir,
			Consumer<ProgressLine> progress) throws IOException {
		Files.createDirectories(dir);
		InjectorClasses classes = InjectorClasses.of(root, java);
		String classpath = classes.classpath();
		List<String> command = new ArrayList<>(List.of(java.toString()));
		command.addAll(JVM_FLAGS);
		command.addAll(classes.flags());
		properties.forEach(property -> command.add("-D" + property));
		command.addAll(List.of("-D" + LoadParameters.OUT_DIR + "=" + dir, "-cp", classpath));
		command.addAll(MAIN);
		command.addAll(List.of("-rf", dir.resolve(LevelDir.GATLING).toString()));
		Files.writeString(dir.resolve(LevelDir.GATLING_COMMAND),
				String.join(" ", command).replace(classpath, classes.shown()) + "\n");
		Process process = Launch.start(command, cpus, null);
		Files.writeString(dir.resolve(LevelDir.INJECTOR_PID), process.pid() + "\n");
		Thread reader = Thread.ofPlatform().daemon().name("gatling-output").start(() -> copy(process, dir.resolve(LevelDir.GATLING_LOG), progress));
		return new GatlingRun(process, reader, null, classes);
	}

	/**
	 * The same simulation on another host over SSH, from the copy {@link Ssh#install} left there: it writes into a
	 * run directory on that host, bounded there by {@code timeout}, and {@link #await} brings its files into
	 * {@code dir}.
	 */
	public static GatlingRun startOver(Ssh ssh, List<String> properties, long timeoutSeconds, Path dir, Consumer<ProgressLine> progress)
			throws IOException {
		Files.createDirectories(dir);
		String run = Ssh.HOME + "/runs/" + dir.getParent().getFileName() + "-" + dir.getFileName() + "-" + ProcessHandle.current().pid();
		String command = ssh.gatlingCommand(JVM_FLAGS, properties, run, timeoutSeconds);
		Files.writeString(dir.resolve(LevelDir.GATLING_COMMAND), ssh.destination() + ": " + command + "\n");
		Process process = Children.register(ssh.process(command).redirectErrorStream(true).start());
		Thread reader = Thread.ofPlatform().daemon().name("gatling-output").start(() -> copy(process, dir.resolve(LevelDir.GATLING_LOG), progress));
		return new GatlingRun(process, reader, () -> ssh.fetch(run, dir), null);
	}

	private static void copy(Process process, Path log, Consumer<ProgressLine> progress) {
		try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
				PrintWriter out = new PrintWriter(Files.newBufferedWriter(log), true)) {
			for (String line = in.readLine(); line != null; line = in.readLine()) {
				Optional<ProgressLine> counts = ProgressLine.parse(line);
				if (counts.isPresent()) {
					progress.accept(counts.get());
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

	/** The injector JVM's PID when it runs here (its CPU is sampled from /proc), else empty. */
	public java.util.OptionalLong pid() {
		return (this.fetch == null) ? java.util.OptionalLong.of(this.process.pid()) : java.util.OptionalLong.empty();
	}

	/**
	 * Gatling's one report over the injectors' records of a level several drove ({@code lab.gatling.MergedReport}:
	 * their {@code simulation.log}s written into one, then Gatling's reports-only mode), in the level's
	 * {@code gatling/all-injectors/}; its console in {@code gatling-merge.log}. Whether the report was written: a merge
	 * that fails leaves each injector's own report, as before.
	 */
	public static boolean mergeReports(Path root, Path java, String cpus, Path level, List<Path> parts) throws IOException, InterruptedException {
		List<Path> logs = new ArrayList<>();
		for (Path part : parts) {
			try (var files = Files.walk(part.resolve(LevelDir.GATLING), 2)) {
				files.filter(file -> file.getFileName().toString().equals(LevelDir.SIMULATION_LOG)).forEach(logs::add);
			}
			catch (java.nio.file.NoSuchFileException ex) {
				// an injector that wrote no Gatling run: the merge below says so
			}
		}
		Path log = level.resolve(LevelDir.GATLING_MERGE_LOG);
		if (logs.size() != parts.size()) {
			Files.writeString(log, "not merged: " + logs.size() + " Gatling logs (simulation.log) for " + parts.size() + " injectors\n");
			return false;
		}
		List<String> command = new ArrayList<>(List.of(java.toString()));
		command.addAll(JVM_FLAGS);
		command.addAll(List.of("-cp", InjectorClasses.classpath(root), "lab.gatling.MergedReport", level.resolve(LevelDir.GATLING).resolve(LevelDir.GATLING_MERGED).toString()));
		logs.forEach(file -> command.add(file.toString()));
		Process process = Launch.start(command, cpus, log);
		if (!process.waitFor(120, TimeUnit.SECONDS)) {
			Children.stop(process);
			return false;
		}
		return process.exitValue() == 0 && Files.isRegularFile(level.resolve(LevelDir.GATLING).resolve(LevelDir.GATLING_MERGED).resolve(LevelDir.GATLING_REPORT));
	}

	/**
	 * Waits up to {@code timeoutSeconds}, then stops it; brings a remote run's files home; returns the exit code
	 * (-1 when it had to be stopped).
	 */
	public int await(long timeoutSeconds) throws IOException, InterruptedException {
		boolean ended = this.process.waitFor(timeoutSeconds, TimeUnit.SECONDS);
		if (!ended) {
			Children.stop(this.process);
		}
		this.reader.join(5_000);
		Children.stop(this.process);
		if (this.fetch != null) {
			this.fetch.into();
		}
		if (this.classes != null) {
			this.classes.settle(ended && this.process.exitValue() == 0);
		}
		return ended ? this.process.exitValue() : -1;
	}

}
