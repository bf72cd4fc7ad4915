package lab.verify;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import lab.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads a tuning's Spring properties back from the running service ({@code /actuator/env/<name>} on its
 * management port): a setting the service never saw (a typo, a property it does not bind) is a tuning that was not
 * applied, and its levels would measure something other than what the report names.
 */
public final class TuningCheck {

	private static final JsonMapper json = Json.MAPPER;

	private TuningCheck() {
	}

	/** Each property's value as the service resolved it; null when the service does not know it. */
	public static Map<String, String> readBack(String managementUrl, Map<String, String> properties) throws IOException, InterruptedException {
		Map<String, String> values = new LinkedHashMap<>();
		try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()) {
			for (String name : properties.keySet()) {
				HttpRequest request = HttpRequest.newBuilder(URI.create(managementUrl + "/actuator/env/" + URLEncoder.encode(name, StandardCharsets.UTF_8)))
					.timeout(Duration.ofSeconds(5))
					.build();
				HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
				JsonNode value = (response.statusCode() == 200) ? json.readTree(response.body()).path("property").path("value") : null;
				values.put(name, (value != null && !value.isMissingNode() && !value.isNull()) ? value.asString() : null);
			}
		}
		return values;
	}

	/** The properties whose value read back differs from the one set, in words; empty when all were applied. */
	public static List<String> problems(Map<String, String> set, Map<String, String> readBack) {
		List<String> problems = new ArrayList<>();
		set.forEach((name, value) -> {
			String seen = readBack.get(name);
			if (!value.equals(seen)) {
				problems.add("tuning property " + name + "=" + value + " reads back as " + ((seen == null) ? "unset" : seen));
			}
		});
		return problems;
	}

}
