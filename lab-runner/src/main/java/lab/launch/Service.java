package lab.launch;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A service under measurement: one the runner started ({@link RunningService}) or one already running elsewhere
 * ({@link RemoteService}). The runner loads, samples and judges both the same way; what only a local process
 * offers (its PID, its log, jcmd dumps) is optional.
 */
public interface Service extends AutoCloseable {

	String name();

	String url();

	/** Where /actuator/health and /actuator/prometheus answer. */
	String managementUrl();

	/** The service's results directory. */
	Path dir();

	/** The PID when the runner started it (its CPU is then read from /proc), else empty. */
	OptionalLong pid();

	/** The JDK it runs on when the runner started it (its jcmd and jstat reach it), else empty. */
	default Optional<Path> javaHome() {
		return Optional.empty();
	}

	boolean alive();

	/** The exit code when it died, else null. */
	Integer exitCode();

	boolean outOfMemory() throws IOException;

	/** Files that show what the service did (log, GC log), relative to nothing: absolute paths. */
	List<Path> logs();

	/** {@code jcmd GC.class_histogram} (the jcmd of the JDK it runs on) while it still lives, when the runner can reach its JVM. */
	Optional<Path> heapHistogram(Path file) throws IOException, InterruptedException;

	/** {@code jcmd Thread.print}, when the runner can reach its JVM. */
	Optional<Path> threadDump(Path file) throws IOException, InterruptedException;

	/**
	 * A diagnostic command ({@code jcmd <pid> <command...>}, its output into {@code output}); false when the runner
	 * cannot reach the service's JVM (a remote target).
	 */
	default boolean diagnose(List<String> command, Path output) throws IOException, InterruptedException {
		return false;
	}

	@Override
	void close();

	/** Whether {@code /actuator/health} answers 200 within 5 s. */
	static boolean healthy(String managementUrl) {
		return answers200(managementUrl + "/actuator/health");
	}

	/** Whether {@code url} answers 200 within 5 s (a service's readiness path). */
	static boolean answers200(String url) {
		try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build()) {
			HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build();
			return client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
		}
		catch (IOException ex) {
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

}
