package lab.common;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A lab service started from its built jar as a child process on a free port (port 0, read back from the port
 * file), for tests that need the real network between a proxy and the downstream. Always {@link #close() closed}
 * by the test that started it; the process is destroyed by its PID, never by name.
 */
public final class ServiceProcess implements AutoCloseable {

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);

	private final Process process;

	private final int port;

	private final Path log;

	private ServiceProcess(Process process, int port, Path log) {
		this.process = process;
		this.port = port;
		this.log = log;
	}

	/** Starts {@code <lab.root>/<module>/target/<module>.jar} with extra {@code --key=value} arguments. */
	public static ServiceProcess start(String module, String... arguments) throws IOException, InterruptedException {
		Path root = Path.of(System.getProperty("lab.root", ".."));
		Path jar = root.resolve(module).resolve("target").resolve(module + ".jar");
		if (!Files.isRegularFile(jar)) {
			throw new IllegalStateException(jar + " is missing: build it first (mvn -pl " + module + " package)");
		}
		return startWith(module, List.of("-jar", jar.toString()), arguments);
	}

	/** Starts {@code java <launch> --server.port=0 ...}, e.g. a main class on an extracted classpath. */
	public static ServiceProcess startWith(String module, List<String> launch, String... arguments)
			throws IOException, InterruptedException {
		// Under the module's target/, not /tmp: the log stays as evidence after a failure and goes with mvn clean.
		Path dir = Files.createTempDirectory(Files.createDirectories(Path.of("target", "service-runs")), module);
		Path portFile = dir.resolve("port");
		Path log = dir.resolve("service.log");
		List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"), "-XX:+UseSerialGC"));
		command.addAll(launch);
		command.addAll(List.of("--server.port=0", "--lab.port-file=" + portFile));
		command.addAll(List.of(arguments));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		// A test JVM that is stopped early (Ctrl-C, a killed build) takes its services with it.
		Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly));
		long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
		while (System.nanoTime() < deadline) {
			if (!process.isAlive()) {
				throw new IllegalStateException(module + " exited with " + process.exitValue() + ":\n" + Files.readString(log));
			}
			if (Files.exists(portFile) && Files.size(portFile) > 0) {
				ServiceProcess service = new ServiceProcess(process, Integer.parseInt(Files.readString(portFile).trim()), log);
				if (service.healthy()) {
					return service;
				}
			}
			Thread.sleep(100);
		}
		process.destroyForcibly();
		throw new IllegalStateException(module + " not healthy within " + STARTUP_TIMEOUT + ":\n" + Files.readString(log));
	}

	public int port() {
		return this.port;
	}

	public long pid() {
		return this.process.pid();
	}

	public String url() {
		return "http://127.0.0.1:" + this.port;
	}

	public String log() throws IOException {
		return Files.readString(this.log);
	}

	private boolean healthy() {
		try (HttpClient client = HttpClient.newHttpClient()) {
			HttpRequest request = HttpRequest.newBuilder(URI.create(url() + "/actuator/health")).timeout(Duration.ofSeconds(2)).build();
			return client.send(request, HttpResponse.BodyHandlers.ofString()).statusCode() == 200;
		}
		catch (IOException ex) {
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	@Override
	public void close() throws InterruptedException {
		this.process.destroy();
		if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
			this.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
		}
	}

}
