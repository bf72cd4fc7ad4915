package lab.plan;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * How much a service observes of itself while measured. {@code full} (the default, what the Compose dashboards
 * need): JVM, process and connection meters plus Spring's per-request server and client timers with histograms,
 * the same for Tomcat and Netty variants. {@code lean}: the JVM, process and connection meters only (GC, CPU, heap,
 * threads, connections: what the verdicts read), no per-request timer. A variant run lean is labelled like a tuning,
 * {@code <variant>.lean}, so a scenario can run both side by side and show what observation costs each model.
 */
public enum Observe {

	FULL("full", "", Map.of()),

	// Spring's observation of every HTTP exchange, server and client side ("http" matches http.server.requests and
	// http.client.requests): the timers, their histograms and the observation context per request.
	LEAN("lean", "observe lean: no per-request timers", Map.of("management.observations.enable.http", "false"));

	private final String id;

	private final String description;

	private final Map<String, String> properties;

	Observe(String id, String description, Map<String, String> properties) {
		this.id = id;
		this.description = description;
		this.properties = properties;
	}

	public String id() {
		return this.id;
	}

	public String description() {
		return this.description;
	}

	/** The Spring properties a service is started with. */
	public Map<String, String> properties() {
		return this.properties;
	}

	public static Observe of(String id) {
		return Arrays.stream(values())
			.filter(mode -> mode.id.equals(id))
			.findFirst()
			.orElseThrow(() -> new PlanException("unknown observe mode '" + id + "': use lean or full (or both: lean,full)"));
	}

	public static List<String> ids() {
		return Arrays.stream(values()).map(Observe::id).toList();
	}

}
