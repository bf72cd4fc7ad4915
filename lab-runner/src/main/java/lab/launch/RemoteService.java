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
 * A service already running elsewhere ({@code --target}, {@code --downstream}): reached and sampled over HTTP
 * only. Its management endpoints answer on the same port (the lab's default). The runner neither starts nor
 * stops it; "alive" means it still answers {@code /actuator/health}; its log and JVM stay on its own host.
 */
public final class RemoteService implements Service {

	private final String name;

	private final URI url;

	private final Path dir;

	private RemoteService(String name, URI url, Path dir) {
		this.name = name;
		this.url = url;
		this.dir = dir;
	}

	/** Checks that it answers its health endpoint, and notes its address in {@code dir/remote.txt}. */
	public static RemoteService at(String name, URI url, Path dir) throws IOException {
		Files.createDirectories(dir);
		Files.writeString(dir.resolve(ServiceDir.REMOTE), name + " already running at " + url + " (not started by the lab)\n");
		RemoteService service = new RemoteService(name, url, dir);
		if (!service.alive()) {
			throw new ServiceFailure(name + " at " + url + " does not answer /actuator/health: check that it runs and that this "
					+ "machine reaches it (security group, --target address)");
		}
		return service;
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
		return url();
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
	public Optional<Path> heapHistogram(Path javaHome, Path file) {
		return Optional.empty();
	}

	@Override
	public Optional<Path> threadDump(Path javaHome, Path file) {
		return Optional.empty();
	}

	/** Not the runner's to stop. */
	@Override
	public void close() {
	}

}
