package lab.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

import lab.layout.ServiceDir;

/** A service the runner started: its port (chosen by the service itself, port 0), PID, log and directory. */
public final class RunningService implements Service {

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);

	private final String name;

	/** The JDK it runs on, whose jcmd reaches it. */
	private final Path javaHome;

	private final Process process;

	private final int port;

	private final int managementPort;

	private final Path dir;

	private RunningService(String name, Path javaHome, Process process, int port, int managementPort, Path dir) {
		this.name = name;
		this.javaHome = javaHome;
		this.process = process;
		this.port = port;
		this.managementPort = managementPort;
		this.dir = dir;
	}

	/**
	 * Starts {@code jar} with the JVM flags and Spring arguments given, waits for its port file and a healthy
	 * {@code /actuator/health}. Writes {@code service.log} and {@code gc.log} into {@code dir}.
	 */
	public static RunningService start(String name, Path java, Path jar, List<String> jvmFlags, List<String> arguments,
			String cpus, Path dir) throws IOException, InterruptedException {
		Files.createDirectories(dir);
		Path portFile = dir.resolve(ServiceDir.PORT);
		Path managementPortFile = dir.resolve(ServiceDir.PORT_MANAGEMENT);
		Files.deleteIfExists(portFile);
		Files.deleteIfExists(managementPortFile);
		List<String> command = javaCommand(java, jvmFlags, dir);
		// Actuator on its own port and connector: a scrape never queues behind the load (a saturated Tomcat pool
		// of 200 threads would otherwise starve /actuator/prometheus and lose the very samples that matter).
		command.addAll(List.of("-jar", jar.toString(), "--server.port=0", "--management.server.port=0", "--lab.port-file=" + portFile));
		command.addAll(arguments);
		Process process = launch(command, cpus, dir);
		return ready(name, process, dir, "was not healthy", () -> {
			if (!(Files.exists(portFile) && Files.size(portFile) > 0 && Files.exists(managementPortFile) && Files.size(managementPortFile) > 0)) {
				return null;
			}
			RunningService service = new RunningService(name, home(java), process, Integer.parseInt(Files.readString(portFile).trim()),
					Integer.parseInt(Files.readString(managementPortFile).trim()), dir);
			return service.healthy() ? service : null;
		});
	}

	/**
	 * Starts a service of the user's own ({@code java <flags> -jar <jar> --<port property>=<free port> <arguments>}), its
	 * metrics on a port of their own when {@code managementPortProperty} is given, and waits until {@code readiness}
	 * answers 200 (on the management port when there is one: Actuator moves there). Nothing of the lab's is asked of
	 * it: no port file, no lab properties. Writes {@code service.log} and {@code gc.log} into {@code dir}.
	 */
	public static RunningService startOwn(String name, Path java, Path jar, List<String> jvmFlags, String portProperty,
			String managementPortProperty, String readiness, List<String> arguments, String cpus, Path dir) throws IOException, InterruptedException {
		Files.createDirectories(dir);
		int port = Launch.freePort();
		int managementPort = (managementPortProperty != null) ? Launch.freePort() : port;
		List<String> command = javaCommand(java, jvmFlags, dir);
		command.addAll(List.of("-jar", jar.toString(), "--" + portProperty + "=" + port));
		if (managementPortProperty != null) {
			command.add("--" + managementPortProperty + "=" + managementPort);
		}
		command.addAll(arguments);
		Process process = launch(command, cpus, dir);
		RunningService service = new RunningService(name, home(java), process, port, managementPort, dir);
		String ready = service.managementUrl() + readiness;
		return ready(name, process, dir, "did not answer " + ready + " with 200", () -> Service.answers200(ready) ? service : null);
	}

	/** {@code java <flags> -Xlog:gc...}: every service the lab starts logs its collections the same way. */
	private static List<String> javaCommand(Path java, List<String> jvmFlags, Path dir) {
		List<String> command = new ArrayList<>(List.of(java.toString()));
		command.addAll(jvmFlags);
		command.add("-Xlog:gc*,safepoint:file=" + dir.resolve(ServiceDir.GC_LOG) + ":uptime,time,level,tags");
		return command;
	}

	/** The JDK a {@code bin/java} belongs to. */
	private static Path home(Path java) {
		return java.toAbsolutePath().getParent().getParent();
	}

	/** Waits ({@link Readiness}) for the service; its ready time written; stopped when it never became ready. */
	private static RunningService ready(String name, Process process, Path dir, String notReady, Readiness.Check<RunningService> check)
			throws IOException, InterruptedException {
		try {
			RunningService service = Readiness.await(name, process, STARTUP_TIMEOUT, dir.resolve(ServiceDir.LOG), notReady, check);
			Files.writeString(dir.resolve(ServiceDir.READY_AT), System.currentTimeMillis() + "\n");
			return service;
		}
		catch (ServiceFailure ex) {
			Children.stop(process);
			throw ex;
		}
	}

	/** Starts {@code command} into {@code dir}: its command line, log, PID and launch time written there. */
	private static Process launch(List<String> command, String cpus, Path dir) throws IOException {
		Files.writeString(dir.resolve(ServiceDir.COMMAND), String.join(" ", command) + "\n");
		long launchedAt = System.currentTimeMillis();
		Process process = Launch.start(command, cpus, dir.resolve(ServiceDir.LOG));
		Files.writeString(dir.resolve(ServiceDir.PID), process.pid() + "\n");
		Files.writeString(dir.resolve(ServiceDir.STARTED_AT), launchedAt + "\n");
		return process;
	}

	@Override
	public Optional<Path> javaHome() {
		return Optional.of(this.javaHome);
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public OptionalLong pid() {
		return OptionalLong.of(this.process.pid());
	}

	@Override
	public String url() {
		return "http://127.0.0.1:" + this.port;
	}

	@Override
	public String managementUrl() {
		return "http://127.0.0.1:" + this.managementPort;
	}

	@Override
	public Path dir() {
		return this.dir;
	}

	public Path log() {
		return this.dir.resolve(ServiceDir.LOG);
	}

	@Override
	public List<Path> logs() {
		return List.of(log(), this.dir.resolve(ServiceDir.GC_LOG));
	}

	@Override
	public boolean alive() {
		return this.process.isAlive();
	}

	@Override
	public Integer exitCode() {
		return this.process.isAlive() ? null : this.process.exitValue();
	}

	/** Whether the service's log reports an OutOfMemoryError. */
	@Override
	public boolean outOfMemory() throws IOException {
		try (var lines = Files.lines(log())) {
			return lines.anyMatch(line -> line.contains("OutOfMemoryError"));
		}
		catch (java.io.UncheckedIOException ex) {
			return false;
		}
	}

	public boolean healthy() {
		return Service.healthy(managementUrl());
	}

	/** {@code jcmd <pid> GC.class_histogram} while the service still lives: what filled the heap. */
	@Override
	public Optional<Path> heapHistogram(Path file) throws IOException, InterruptedException {
		return Optional.of(jcmd("GC.class_histogram", file));
	}

	/**
	 * {@code jcmd <pid> Thread.print} (every platform thread, with its locks) into {@code file}, and beside it, with
	 * the extension {@code .json}, {@code Thread.dump_to_file -format=json}, which also lists every virtual thread
	 * (Thread.print omits them): what the service was doing when it hung.
	 */
	@Override
	public Optional<Path> threadDump(Path file) throws IOException, InterruptedException {
		jcmd("Thread.print", file);
		Path json = withJsonExtension(file).toAbsolutePath();
		Files.deleteIfExists(json);
		jcmd("Thread.dump_to_file -format=json " + json, null);
		return Optional.of(file);
	}

	@Override
	public boolean diagnose(List<String> command, Path output) throws IOException, InterruptedException {
		jcmd(String.join(" ", command), output);
		return true;
	}

	/** {@code thread-dump.txt} → {@code thread-dump.json}. */
	public static Path withJsonExtension(Path file) {
		String name = file.getFileName().toString();
		int dot = name.lastIndexOf('.');
		return file.resolveSibling(((dot > 0) ? name.substring(0, dot) : name) + ".json");
	}

	/** {@code jcmd} of the JDK the service runs on: a JDK 21 service is reached by JDK 21's tools. */
	private Path jcmd(String command, Path file) throws IOException, InterruptedException {
		List<String> args = new ArrayList<>(List.of(this.javaHome.resolve("bin/jcmd").toString(), Long.toString(this.process.pid())));
		args.addAll(List.of(command.split(" ")));
		Process jcmd = new ProcessBuilder(args)
			.redirectErrorStream(true)
			.redirectOutput((file != null) ? ProcessBuilder.Redirect.to(file.toFile()) : ProcessBuilder.Redirect.DISCARD)
			.start();
		if (!jcmd.waitFor(30, TimeUnit.SECONDS)) {
			jcmd.destroyForcibly();
		}
		return file;
	}

	/**
	 * Asks the JVM to exit (SIGTERM) and waits for it as long as {@code timeout}, its shutdown work done (a training
	 * run writes its AOT cache as it exits); then as {@link #close}. Whether it exited by itself.
	 */
	public boolean exitAndWait(Duration timeout) throws InterruptedException {
		this.process.destroy();
		boolean exited = this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
		Children.stop(this.process);
		return exited;
	}

	@Override
	public void close() {
		Children.stop(this.process);
	}

}
