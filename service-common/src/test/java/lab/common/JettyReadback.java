package lab.common;

import java.util.LinkedHashMap;
import java.util.Map;

import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

import org.springframework.boot.jetty.JettyWebServer;
import org.springframework.boot.web.server.WebServer;
import org.springframework.core.env.Environment;

/**
 * Jetty's limits and buffer sizes, read back from the running server, beside what the service's environment asks
 * for (Jetty's and Spring Boot's defaults where nothing is set). Only the Jetty variant loads this class.
 */
final class JettyReadback {

	private JettyReadback() {
	}

	/** By name, so that a service without Jetty never loads Jetty's classes. */
	static boolean isJetty(WebServer server) {
		for (Class<?> type = server.getClass(); type != null; type = type.getSuperclass()) {
			if (type.getName().equals("org.springframework.boot.jetty.JettyWebServer")) {
				return true;
			}
		}
		return false;
	}

	/** What the server uses, by name. */
	static Map<String, Object> read(WebServer server) {
		var jetty = ((JettyWebServer) server).getServer();
		ServerConnector connector = (ServerConnector) jetty.getConnectors()[0];
		HttpConfiguration http = connector.getConnectionFactory(HttpConnectionFactory.class).getHttpConfiguration();
		Map<String, Object> settings = new LinkedHashMap<>();
		settings.put("accept queue", connector.getAcceptQueueSize());
		settings.put("request header limit", http.getRequestHeaderSize());
		settings.put("response header buffer", http.getResponseHeaderSize());
		settings.put("header field cache", http.getHeaderCacheSize());
		settings.put("output buffer", http.getOutputBufferSize());
		settings.put("output aggregation", http.getOutputAggregationSize());
		settings.put("requests handled at once (virtual threads)",
				(jetty.getThreadPool() instanceof VirtualThreadPool pool) ? pool.getMaxConcurrentTasks() : "not a VirtualThreadPool");
		return settings;
	}

	/** What the environment asks for, by the same names. */
	static Map<String, Object> expected(Environment environment) {
		Map<String, Object> settings = new LinkedHashMap<>();
		settings.put("accept queue", environment.getProperty("lab.jetty.accept-queue-size", Integer.class, 0));
		settings.put("request header limit", Sizes.bytes(environment, "server.max-http-request-header-size", 8192));
		// Boot's metadata names 16 KB as this property's default, but Boot sets it only when given: Jetty's 8 KB holds.
		settings.put("response header buffer", Sizes.bytes(environment, "server.jetty.max-http-response-header-size", 8192));
		settings.put("header field cache", environment.getProperty("lab.jetty.header-cache-size", Integer.class, 1024));
		// Jetty's defaults, which no setting of the lab changes: taken from the shared buffer pool while a response is
		// written, not held per connection.
		settings.put("output buffer", 32768);
		settings.put("output aggregation", 8192);
		settings.put("requests handled at once (virtual threads)", environment.getProperty("server.jetty.threads.max", Integer.class, 200));
		return settings;
	}

}
