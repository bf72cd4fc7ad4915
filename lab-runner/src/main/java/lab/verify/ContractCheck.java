package lab.verify;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import lab.layout.LoadParameters;
import lab.plan.Work;

/**
 * Checks the contract with a few requests before anything is measured, as TechEmpower verifies every framework
 * first: a service that answers wrongly must not get a throughput figure. Returns problems, never throws.
 */
public final class ContractCheck {

	private ContractCheck() {
	}

	public static List<String> problems(String baseUrl, String managementUrl, long delayMs) {
		return problems(baseUrl, managementUrl, delayMs, Work.NONE);
	}

	/**
	 * The contract, and with {@code work} asked of each request, that the service does it: its answer names the rounds
	 * done and has the size asked. A service built before the work per request ignores the parameters and would be
	 * measured at pure waiting under a label that says otherwise.
	 */
	public static List<String> problems(String baseUrl, String managementUrl, long delayMs, Work work) {
		List<String> problems = new ArrayList<>();
		try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()) {
			HttpResponse<String> ok = get(client, baseUrl + "/address/" + delayMs, delayMs);
			if (ok.statusCode() != 200 || !ok.body().contains("\"street\"")) {
				problems.add("GET /address/" + delayMs + " answered " + ok.statusCode() + " " + clip(ok.body()) + ", expected 200 with an address");
			}
			if (work.rounds() > 0 || work.responseBytes() > 0) {
				String path = LoadParameters.requestPath(delayMs, work.rounds(), work.responseBytes());
				HttpResponse<String> worked = get(client, baseUrl + path, delayMs);
				int size = worked.body().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
				if (worked.statusCode() != 200 || !worked.body().contains("\"rounds\":" + work.rounds() + ",")
						|| (work.responseBytes() >= 512 && size != work.responseBytes())) {
					problems.add("GET " + path + " answered " + worked.statusCode() + " with " + size + " bytes (" + clip(worked.body())
							+ "), expected 200 with \"rounds\":" + work.rounds() + ((work.responseBytes() >= 512) ? " in " + work.responseBytes() + " bytes" : "")
							+ ": a service built before the work per request? ./lab run rebuilds it");
				}
			}
			HttpResponse<String> bad = get(client, baseUrl + "/address/not-a-number", 0);
			if (bad.statusCode() != 400 || !bad.body().contains("\"error\"")) {
				problems.add("GET /address/not-a-number answered " + bad.statusCode() + ", expected 400 with a JSON error body");
			}
			HttpResponse<String> metrics = get(client, managementUrl + "/actuator/prometheus", 0);
			for (String series : List.of("process_memory_rss_bytes", "process_cpu_user_seconds_total", "jvm_gc_pause_seconds")) {
				if (!metrics.body().contains(series)) {
					problems.add("/actuator/prometheus lacks " + series);
				}
			}
		}
		catch (IOException ex) {
			problems.add("request failed: " + ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			problems.add("interrupted");
		}
		return problems;
	}

	private static HttpResponse<String> get(HttpClient client, String url, long delayMs) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMillis(10_000 + 2 * delayMs)).build();
		return client.send(request, HttpResponse.BodyHandlers.ofString());
	}

	private static String clip(String body) {
		return (body.length() > 120) ? body.substring(0, 120) + "..." : body;
	}

}
