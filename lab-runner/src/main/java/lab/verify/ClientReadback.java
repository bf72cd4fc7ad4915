package lab.verify;

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
import java.util.Optional;

import lab.json.Json;
import lab.layout.ServiceDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The downstream client's effective settings as the service reads them back from the client it built
 * ({@code downstreamClient} in its {@code /actuator/info}): kept beside the service's log as
 * {@value ServiceDir#DOWNSTREAM_CLIENT} and shown in the report, so a reader sees that every variant called the
 * downstream with the same timeouts and pool.
 */
public final class ClientReadback {

	private static final JsonMapper json = Json.MAPPER;

	private ClientReadback() {
	}

	/** The settings, or empty when the service does not report them (a service outside the lab, an older build). */
	public static Optional<JsonNode> read(String managementUrl) throws InterruptedException {
		try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()) {
			HttpRequest request = HttpRequest.newBuilder(URI.create(managementUrl + "/actuator/info")).timeout(Duration.ofSeconds(5)).build();
			HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
			JsonNode settings = (response.statusCode() == 200) ? json.readTree(response.body()).path("downstreamClient") : null;
			return (settings == null || settings.isMissingNode()) ? Optional.empty() : Optional.of(settings);
		}
		catch (IOException | RuntimeException ex) {
			return Optional.empty();
		}
	}

	/** Reads a kept file back; empty when there is none or it does not parse. */
	public static Optional<JsonNode> kept(Path variantDir) {
		Path file = variantDir.resolve(ServiceDir.DOWNSTREAM_CLIENT);
		try {
			return Files.isRegularFile(file) ? Optional.of(json.readTree(file.toFile())) : Optional.empty();
		}
		catch (RuntimeException ex) {
			return Optional.empty();
		}
	}

	/** One line: "RestClient on HttpComponentsClientHttpRequestFactory, connect PT2S, read PT30S, pool 20000, ...". */
	public static String describe(JsonNode settings) {
		List<String> parts = new ArrayList<>();
		String head = settings.path("client").asString("?");
		if (settings.has("implementation")) {
			head += " on " + settings.path("implementation").asString();
		}
		parts.add(head);
		add(parts, settings, "connectTimeout", "connect timeout");
		add(parts, settings, "readTimeout", "read timeout");
		add(parts, settings, "maxConnections", "pool");
		add(parts, settings, "maxConnectionsPerRoute", "per route");
		add(parts, settings, "bufferSize", "buffer bytes");
		add(parts, settings, "version", "HTTP");
		if (settings.path("stages").isArray()) {
			List<String> stages = new ArrayList<>();
			settings.path("stages").forEach(stage -> stages.add(stage.asString()));
			parts.add("stages " + String.join(" → ", stages));
		}
		JsonNode netty = settings.path("netty");
		if (netty.isObject()) {
			parts.add("on Netty " + netty.path("version").asString("?") + " (Reactor Netty " + netty.path("reactorNetty").asString("?")
					+ "), allocator " + netty.path("allocator").asString("?") + ", transport " + netty.path("transport").asString("?") + ", accepting on " + netty.path("accept").asString("?"));
		}
		add(parts, settings, "unreadable", "unreadable");
		return String.join(", ", parts);
	}

	private static void add(List<String> parts, JsonNode settings, String field, String label) {
		if (settings.has(field)) {
			parts.add(label + " " + settings.path(field).asString());
		}
	}

}
