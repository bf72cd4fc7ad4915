package lab.verify;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import lab.plan.Feed;
import lab.plan.OwnService;

/**
 * The admission of a service of the user's own: each request of its file sent once, as the load will send it, and
 * answered with the status the file names. A request that fails here would fail every time under load: the service is
 * not measured, and the report says which request answered what.
 */
public final class OwnCheck {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private OwnCheck() {
	}

	private static java.util.Map<String, String> first(Feed feed) {
		try {
			return feed.records().get(0);
		}
		catch (IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

	/** {@code text} with each {@code {key}} of {@code values} replaced, URL-encoded in a path. */
	static String fill(String text, java.util.Map<String, String> values, boolean inPath) {
		String filled = text;
		for (java.util.Map.Entry<String, String> value : values.entrySet()) {
			String replacement = inPath ? java.net.URLEncoder.encode(value.getValue(), java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20") : value.getValue();
			filled = filled.replace("{" + value.getKey() + "}", replacement);
		}
		return filled;
	}

	/** One line per request that did not answer as the file says; empty when every one did. */
	public static List<String> problems(String baseUrl, List<OwnService.Request> requests) throws InterruptedException {
		List<String> problems = new ArrayList<>();
		try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()) {
			for (OwnService.Request request : requests) {
				// A fed request is checked with its feed's first values, as its first user sends it.
				java.util.Map<String, String> first = (request.feed() != null) ? first(request.feed()) : java.util.Map.of();
				String path = fill(request.path(), first, true);
				HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(TIMEOUT)
					.method(request.method(), (request.body() != null) ? HttpRequest.BodyPublishers.ofString(fill(request.body(), first, false))
							: HttpRequest.BodyPublishers.noBody());
				request.headers().forEach((name, value) -> builder.header(name, fill(value, first, false)));
				String what = request.method() + " " + path;
				try {
					HttpResponse<String> response = client.send(builder.build(), HttpResponse.BodyHandlers.ofString());
					if (response.statusCode() != request.status()) {
						String body = response.body().replaceAll("\\s+", " ").trim();
						problems.add(what + " answered " + response.statusCode() + ", not " + request.status()
								+ (body.isEmpty() ? "" : ": " + body.substring(0, Math.min(200, body.length()))));
					}
				}
				catch (IOException ex) {
					problems.add(what + " got no answer (" + ex.getClass().getSimpleName() + ((ex.getMessage() != null) ? ": " + ex.getMessage() : "") + ")");
				}
			}
		}
		return problems;
	}

}
