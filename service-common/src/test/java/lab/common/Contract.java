package lab.common;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contract every service serves, checked over real HTTP. Each variant's tests call these with its own
 * expectations, so one definition of the contract drives all of them, as one Gatling simulation does.
 */
public final class Contract {

	/** Bad delayMs values: not an integer, negative, above the cap, overflowing a long. */
	public static final List<String> BAD_DELAYS = List.of("abc", "-1", "60001", "1.5", "99999999999999999999");


	private Contract() {
	}

	public static HttpResponse<String> get(String url) throws IOException, InterruptedException {
		try (HttpClient client = HttpClient.newHttpClient()) {
			HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build();
			return client.send(request, HttpResponse.BodyHandlers.ofString());
		}
	}

	public static void assertAddress(HttpResponse<String> response, long delayMs) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
		assertThat(response.body()).contains("\"street\":\"1 Loom Street\"").contains("\"delayMs\":" + delayMs);
	}

	/**
	 * An RFC 9457 problem detail ({@code application/problem+json}) with the status, a title, a detail and the
	 * contract's stable code in the extension member {@code error}; no stack trace.
	 */
	public static void assertError(HttpResponse<String> response, int status, String error) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
		assertThat(response.headers().firstValue("Content-Type")).as(response.body())
			.hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
		JsonNode problem = JSON.readTree(response.body());
		assertThat(problem.path("status").asInt()).as(response.body()).isEqualTo(status);
		assertThat(problem.path("error").asString()).as(response.body()).isEqualTo(error);
		assertThat(problem.path("title").asString()).as(response.body()).isNotBlank();
		assertThat(problem.path("detail").isString()).as(response.body()).isTrue();
		assertThat(response.body()).doesNotContain("\tat ");
	}

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/**
	 * The downstream client's effective settings, as the running service reads them back from the client it built
	 * ({@code downstreamClient} in {@code /actuator/info}).
	 */
	public static JsonNode downstreamClient(String baseUrl) throws IOException, InterruptedException {
		HttpResponse<String> info = get(baseUrl + "/actuator/info");
		assertThat(info.statusCode()).as(info.body()).isEqualTo(200);
		return JSON.readTree(info.body()).path("downstreamClient");
	}

	public static void assertBadDelaysRejected(String baseUrl) throws IOException, InterruptedException {
		for (String bad : BAD_DELAYS) {
			assertError(get(baseUrl + "/address/" + bad), 400, "bad_parameter");
		}
	}

	/** {@code value} of the first Prometheus sample of {@code name} with all {@code labels}; fails when absent. */
	public static double scrape(String baseUrl, String name, String... labels) throws IOException, InterruptedException {
		String text = get(baseUrl + "/actuator/prometheus").body();
		for (String line : text.lines().toList()) {
			if (line.startsWith(name + "{") || line.startsWith(name + " ")) {
				boolean all = true;
				for (String label : labels) {
					all &= line.contains(label);
				}
				if (all) {
					return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
				}
			}
		}
		throw new AssertionError("no series " + name + " " + List.of(labels) + " on " + baseUrl + "/actuator/prometheus");
	}

	/** Restarts the downstream's in-flight peak so the next burst is observed alone. */
	public static void resetPeak(String downstreamUrl) throws IOException, InterruptedException {
		try (HttpClient client = HttpClient.newHttpClient()) {
			client.send(HttpRequest.newBuilder(URI.create(downstreamUrl + "/inflight")).DELETE().build(),
					HttpResponse.BodyHandlers.discarding());
		}
	}

	public static int peak(String downstreamUrl) throws IOException, InterruptedException {
		Matcher matcher = Pattern.compile("\"peak\":(\\d+)").matcher(get(downstreamUrl + "/inflight").body());
		assertThat(matcher.find()).isTrue();
		return Integer.parseInt(matcher.group(1));
	}

	/**
	 * Sends {@code count} requests at once, each from its own virtual thread and connection, and waits for all.
	 * Bounded: every request has a 60 s timeout.
	 */
	public static Burst burst(String url, int count) throws InterruptedException {
		Map<Integer, Integer> statuses = new TreeMap<>();
		long start = System.nanoTime();
		try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();
				ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
			HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60)).build();
			List<Future<Integer>> responses = new ArrayList<>();
			for (int i = 0; i < count; i++) {
				responses.add(threads.submit(() -> client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode()));
			}
			for (Future<Integer> response : responses) {
				int status;
				try {
					status = response.get();
				}
				catch (Exception ex) {
					status = -1;
				}
				statuses.merge(status, 1, Integer::sum);
			}
		}
		return new Burst(statuses, Duration.ofNanos(System.nanoTime() - start));
	}

	/** Status code → count (-1 for a request that got no response), and the wall time of the whole burst. */
	public record Burst(Map<Integer, Integer> statuses, Duration wallTime) {
	}

}
