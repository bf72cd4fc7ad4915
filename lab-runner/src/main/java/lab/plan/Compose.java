package lab.plan;

import java.net.URI;
import java.util.Map;

/**
 * The Compose stack ({@code docker-compose.yml}) as the runner reaches it with {@code --compose}: by service name and
 * container port from inside the stack's network (the {@code lab} service sets {@code LAB_COMPOSE_NETWORK}), else
 * through the ports published on {@code LAB_COMPOSE_HOST} (default 127.0.0.1), as the Compose file's
 * {@code LAB_<VARIANT>_PORT} variables publish them (defaults: each variant's port in {@code variants.yml}).
 */
public record Compose(boolean inNetwork, String host, Map<String, String> env) {

	/** The downstream's port in the stack and its default on the host. */
	static final int DOWNSTREAM_PORT = 7000;

	/** How a t2.micro is emulated in the stack: what the report says beside a local run's taskset and JVM flags. */
	public static final String EMULATION = "Compose: each proxy in its own container limited to 1 CPU by a CFS quota (its threads may run on "
			+ "any host core, 100 ms of CPU per 100 ms period) and 1 GiB of memory without swap; the JVM sizes its heap and GC from the "
			+ "container's limits, with no flag of the lab's. Not measured through Compose: class histograms and heap snapshots (no jcmd "
			+ "into a container), JFR and CPU profiles, the services' logs (docker compose logs)";

	public static Compose from(Map<String, String> env) {
		return new Compose(env.containsKey("LAB_COMPOSE_NETWORK"), env.getOrDefault("LAB_COMPOSE_HOST", "127.0.0.1"), Map.copyOf(env));
	}

	/** The base URL of a variant or of the downstream. */
	public URI url(String service) {
		return address(service, port(service), service.equals(Variant.DOWNSTREAM) ? "DOWNSTREAM" : variant(service).envName(), "_PORT");
	}

	/**
	 * The base URL of a variant's management endpoints ({@link Variant#managementPort()}); the downstream's answer on
	 * its one port.
	 */
	public URI managementUrl(String service) {
		if (service.equals(Variant.DOWNSTREAM)) {
			return url(service);
		}
		return address(service, variant(service).managementPort(), variant(service).envName(), "_MANAGEMENT_PORT");
	}

	/** By name and container port inside the network, else the host and the port LAB_&lt;name&gt;&lt;suffix&gt; publishes. */
	private URI address(String service, int containerPort, String envName, String suffix) {
		if (this.inNetwork) {
			return URI.create("http://" + service + ":" + containerPort);
		}
		String published = this.env.get("LAB_" + envName + suffix);
		return URI.create("http://" + this.host + ":" + ((published != null) ? published.trim() : Integer.toString(containerPort)));
	}

	private static int port(String service) {
		return service.equals(Variant.DOWNSTREAM) ? DOWNSTREAM_PORT : variant(service).port();
	}

	private static Variant variant(String name) {
		return Variant.ALL.stream().filter(v -> v.name().equals(name)).findFirst()
			.orElseThrow(() -> new PlanException("--compose: " + name + " is not a variant of variants.yml: " + String.join(", ", Variant.names())));
	}

	public String describe() {
		return this.inNetwork ? "from inside its network, by service name" : "through its published ports on " + this.host;
	}

}
