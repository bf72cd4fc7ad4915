package lab.common;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The server's open HTTP connections as one gauge for every server, {@code lab.server.connections.open}: in the
 * lab's closed model each user holds one connection, so this is the requests in flight, at no cost per request.
 * The runner, the memory profile, the timelines and the dashboards read this one name whatever the server.
 */
final class ServerConnections {

	static final String METER = "lab.server.connections.open";

	private final AtomicLong open = new AtomicLong();

	private ServerConnections() {
	}

	/** A gauge counted by {@link #opened()} and {@link #closed()}, for servers that report each connection. */
	static ServerConnections register(MeterRegistry registry, String server) {
		ServerConnections connections = new ServerConnections();
		register(registry, server, connections.open::get);
		return connections;
	}

	/** A gauge read from the server's own count. */
	static void register(MeterRegistry registry, String server, LongSupplier count) {
		Gauge.builder(METER, count, c -> c.getAsLong())
			.description("Open HTTP connections of the server (" + server + ")")
			.strongReference(true) // the supplier is held by nothing else
			.register(registry);
	}

	void opened() {
		this.open.incrementAndGet();
	}

	void closed() {
		this.open.decrementAndGet();
	}

}
