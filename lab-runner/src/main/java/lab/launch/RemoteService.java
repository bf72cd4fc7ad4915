package lab.launch;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import lab.layout.ServiceDir;

/**
 * A service already running elsewhere ({@code --target}, {@code --downstream}, {@code --compose}): reached and sampled
 * over HTTP only. Its management endpoints answer on the same port (the lab's default), or on their own (Compose). The runner neither starts nor
 * stops it; "alive" means it still answers {@code /actuator/health}; its log and JVM stay on its own host.
 */
public final class RemoteService implements Service {

	private final String name;

	private final URI url;

	private final URI management;

	private final Path dir;

	/** {@link #jvmFacts()}, read when the service is reached. */
	private String jvmFacts = "not read";

	private RemoteService(String name, URI url, URI management, Path dir) {
		this.name = name;
		this.url = url;
		this.management = management;
		this.dir = dir;
	}

	/** Checks that it answers its health endpoint, and notes its address in {@code dir/remote.txt}. */
	public static RemoteService at(String name, URI url, Path dir) throws IOException {
		return at(name, url, url, dir);
	}

	/** The same, its management endpoints on a base URL of their own. */
	public static RemoteService at(String name, URI url, URI management, Path dir) throws IOException {
		Files.createDirectories(dir);
		Files.writeString(dir.resolve(ServiceDir.REMOTE), name + " already running at " + url + " (not started by the lab)"
				+ (management.equals(url) ? "" : ", health and metrics at " + management) + "\n");
		RemoteService service = new RemoteService(name, url, management, dir);
		if (!service.alive()) {
			throw new ServiceFailure(name + " at " + url + " does not answer /actuator/health: check that it runs and that this "
					+ "machine reaches it (security group, --target address)");
		}
		service.jvmFacts = service.readJvmFacts();
		Files.writeString(dir.resolve(ServiceDir.REMOTE), "its JVM: " + service.jvmFacts + "\n", java.nio.file.StandardOpenOption.APPEND);
		return service;
	}

	/**
	 * What the JVM there chose for itself, read once when it was reached: the processors it sees, its heap's maximum
	 * and its collector. In a container these follow the container's limits.
	 */
	public String jvmFacts() {
		return this.jvmFacts;
	}

	/** The JVM's facts from its own metrics (the collector named by its old generation's pool). */
	private String readJvmFacts() {
		String scrape;
		try (java.net.http.HttpClient client = java.net.http.HttpClient.newBuilder().connectTimeout(java.time.Duration.ofSeconds(2)).build()) {
			scrape = client.send(java.net.http.HttpRequest.newBuilder(URI.create(managementUrl() + "/actuator/prometheus"))
				.timeout(java.time.Duration.ofSeconds(5)).build(), java.net.http.HttpResponse.BodyHandlers.ofString()).body();
		}
		catch (IOException ex) {
			return "not read (" + ex.getMessage() + ")";
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return "not read (interrupted)";
		}
		return facts(scrape);
	}

	static String facts(String scrape) {
		double cpus = Double.NaN;
		double heapMax = 0;
		String gc = "unknown";
		java.util.regex.Matcher line = java.util.regex.Pattern.compile("(?m)^(system_cpu_count|jvm_memory_max_bytes)(\\{[^}]*})? (\\S+)$").matcher(scrape);
		while (line.find()) {
			double value = Double.parseDouble(line.group(3));
			String labels = (line.group(2) != null) ? line.group(2) : "";
			if (line.group(1).equals("system_cpu_count")) {
				cpus = value;
			}
			else if (labels.contains("area=\"heap\"")) {
				heapMax += Math.max(0, value);
				gc = labels.contains("Tenured Gen") ? "Serial" : labels.contains("G1 ") ? "G1" : labels.contains("PS Old Gen") ? "Parallel"
						: labels.contains("ZGC") ? "ZGC" : labels.contains("Shenandoah") ? "Shenandoah" : gc;
			}
		}
		return String.format(java.util.Locale.ROOT, "%s CPUs seen, heap max %.0f MiB (its pools' maxima), %s GC", Double.isNaN(cpus) ? "?" : String.format(java.util.Locale.ROOT, "%.0f", cpus),
				heapMax / (1 << 20), gc);
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public String url() {
		return this.url.toString();
	}

	@Override
	public String managementUrl() {
		return this.management.toString();
	}

	@Override
	public Path dir() {
		return this.dir;
	}

	@Override
	public OptionalLong pid() {
		return OptionalLong.empty();
	}

	/** Three chances: right after a level, a service at its limit may still be draining. */
	@Override
	public boolean alive() {
		for (int attempt = 0; attempt < 3; attempt++) {
			if (Service.healthy(managementUrl())) {
				return true;
			}
		}
		return false;
	}

	@Override
	public Integer exitCode() {
		return null;
	}

	/** Unknown from here: its log is on its own host (journalctl -u on the AWS instances). */
	@Override
	public boolean outOfMemory() {
		return false;
	}

	@Override
	public List<Path> logs() {
		return List.of(this.dir.resolve(ServiceDir.REMOTE));
	}

	@Override
	public Optional<Path> heapHistogram(Path file) {
		return Optional.empty();
	}

	@Override
	public Optional<Path> threadDump(Path file) {
		return Optional.empty();
	}

	/** Not the runner's to stop. */
	@Override
	public void close() {
	}

}
