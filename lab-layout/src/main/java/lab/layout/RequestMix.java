package lab.layout;

import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The requests a service of the user's own is sent, by weight: written by the runner into the level's directory,
 * read by the simulation ({@code -DrequestsFile}). One request a line, its fields tab-separated and URL-encoded
 * (weight, status, method, name, path, body, headers as {@code name=value&...}, its own latency target, its feed's
 * file, the feed's strategy and its think time; empty for none), so the simulation needs no JSON library of its own.
 * Files of seven or eight fields a line (before the target, before the feed) read too.
 */
public final class RequestMix {

	/** The simulation's parameter naming the file; absent, it sends the lab's own {@code /address/{delayMs}}. */
	public static final String PROPERTY = "requestsFile";

	/**
	 * @param body null (or empty) for none
	 * @param target this request's own latency target ({@link LatencyTarget#parse}), judged like the level's; null for none
	 * @param feed its values' file ({@link #writeFeed}), relative to the mix's directory; null for none. The path, the
	 *        headers' values and the body name a value as {@code {key}}.
	 * @param strategy the feed's Gatling strategy, circular or random
	 * @param thinkMs how long its user pauses after it, outside its response time; 0 for none
	 */
	public record Request(String name, String method, String path, Map<String, String> headers, String body, int weight, int status,
			String target, String feed, String strategy, int thinkMs) {

		public Request {
			headers = Map.copyOf(headers);
		}

		/** A request without a target, a feed or a think time of its own. */
		public Request(String name, String method, String path, Map<String, String> headers, String body, int weight, int status) {
			this(name, method, path, headers, body, weight, status, null, null, null, 0);
		}

		/** A request with a target of its own, without a feed or a think time. */
		public Request(String name, String method, String path, Map<String, String> headers, String body, int weight, int status, String target) {
			this(name, method, path, headers, body, weight, status, target, null, null, 0);
		}

	}

	/** A feed's values for the simulation: the keys on the first line, then a record a line, tab-separated and URL-encoded. */
	public static void writeFeed(List<Map<String, String>> records, Path file) throws IOException {
		StringBuilder text = new StringBuilder();
		List<String> keys = List.copyOf(records.get(0).keySet());
		text.append(String.join("\t", keys.stream().map(RequestMix::encode).toList())).append('\n');
		for (Map<String, String> record : records) {
			text.append(String.join("\t", keys.stream().map(key -> encode(record.getOrDefault(key, ""))).toList())).append('\n');
		}
		Files.writeString(file, text.toString());
	}

	/** A feed's values as {@link #writeFeed} wrote them. */
	public static List<Map<String, Object>> readFeed(Path file) throws IOException {
		List<String> lines = Files.readAllLines(file);
		List<String> keys = java.util.Arrays.stream(lines.get(0).split("\t", -1)).map(RequestMix::decode).toList();
		List<Map<String, Object>> records = new ArrayList<>();
		for (String line : lines.subList(1, lines.size())) {
			String[] values = line.split("\t", -1);
			Map<String, Object> record = new LinkedHashMap<>();
			for (int i = 0; i < keys.size(); i++) {
				record.put(keys.get(i), (i < values.length) ? decode(values[i]) : "");
			}
			records.add(record);
		}
		return records;
	}

	private RequestMix() {
	}

	public static void write(List<Request> requests, Path file) throws IOException {
		StringBuilder text = new StringBuilder();
		for (Request request : requests) {
			StringBuilder headers = new StringBuilder();
			request.headers().forEach((key, value) -> headers.append(headers.isEmpty() ? "" : "&").append(encode(key)).append('=').append(encode(value)));
			text.append(request.weight()).append('\t').append(request.status()).append('\t').append(encode(request.method())).append('\t')
				.append(encode(request.name())).append('\t').append(encode(request.path())).append('\t')
				.append((request.body() != null) ? encode(request.body()) : "").append('\t').append(encode(headers.toString())).append('\t')
				.append((request.target() != null) ? encode(request.target()) : "").append('\t')
				.append((request.feed() != null) ? encode(request.feed()) : "").append('\t')
				.append((request.strategy() != null) ? encode(request.strategy()) : "").append('\t').append(request.thinkMs()).append('\n');
		}
		Files.writeString(file, text.toString());
	}

	/** @throws IllegalArgumentException naming the line that is not a request */
	public static List<Request> read(Path file) throws IOException {
		List<Request> requests = new ArrayList<>();
		List<String> lines = Files.readAllLines(file);
		for (int i = 0; i < lines.size(); i++) {
			if (lines.get(i).isBlank()) {
				continue;
			}
			String[] f = lines.get(i).split("\t", -1);
			if (f.length != 7 && f.length != 8 && f.length != 11) {
				throw new IllegalArgumentException(file + " line " + (i + 1) + ": not a request (7, 8 or 11 tab-separated fields)");
			}
			Map<String, String> headers = new LinkedHashMap<>();
			String joined = decode(f[6]);
			if (!joined.isEmpty()) {
				for (String pair : joined.split("&")) {
					int eq = pair.indexOf('=');
					headers.put(decode(pair.substring(0, eq)), decode(pair.substring(eq + 1)));
				}
			}
			requests.add(new Request(decode(f[3]), decode(f[2]), decode(f[4]), headers, f[5].isEmpty() ? null : decode(f[5]),
					Integer.parseInt(f[0]), Integer.parseInt(f[1]), (f.length < 8 || f[7].isEmpty()) ? null : decode(f[7]),
					(f.length < 11 || f[8].isEmpty()) ? null : decode(f[8]), (f.length < 11 || f[9].isEmpty()) ? null : decode(f[9]),
					(f.length < 11) ? 0 : Integer.parseInt(f[10])));
		}
		if (requests.isEmpty()) {
			throw new IllegalArgumentException(file + ": no request");
		}
		return requests;
	}

	/** Each request's share in percent, the last taking what the others leave so they add up to 100 exactly. */
	public static double[] percents(List<Request> requests) {
		double total = requests.stream().mapToInt(Request::weight).sum();
		double[] percents = new double[requests.size()];
		double sum = 0;
		for (int i = 0; i < percents.length - 1; i++) {
			percents[i] = 100.0 * requests.get(i).weight() / total;
			sum += percents[i];
		}
		percents[percents.length - 1] = Math.max(0, 100.0 - sum);
		return percents;
	}

	private static String encode(String text) {
		return URLEncoder.encode(text, StandardCharsets.UTF_8);
	}

	private static String decode(String text) {
		return URLDecoder.decode(text, StandardCharsets.UTF_8);
	}

}
