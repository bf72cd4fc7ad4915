package lab.sample;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import lab.json.Json;
import lab.launch.Service;
import lab.layout.LevelDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * The service's live heap at one moment and the requests it held then: {@code jcmd GC.class_histogram} (a full GC
 * first, so the total is live objects only, not the garbage that peak "heap used" is mostly made of) beside the
 * server's own open-connection gauge and RSS from a scrape just before. Written as {@code <name>.json} with the
 * histogram in {@code <name>.txt}.
 *
 * @param epochMs when the scrape was taken
 * @param inFlight the server's open connections (Tomcat current connections + the Netty variants' open ones): in a
 *     closed model every connection carries one request in flight
 * @param liveBytes live heap after a full GC: the histogram's total less heap fillers; NaN when the histogram could not be read
 * @param heapMaxBytes the heap the JVM may grow to ({@code jvm.memory.max}, heap pools summed)
 * @param rssBytes resident set size at the scrape
 * @param histogram the histogram's file name, beside this one
 */
public record HeapSnapshot(long epochMs, double inFlight, double liveBytes, double heapMaxBytes, double rssBytes, String histogram) {

	private static final JsonMapper json = Json.MAPPER;

	/** Takes one (only of a service this runner started: it needs its PID); empty when it cannot. */
	public static Optional<HeapSnapshot> take(Service service, Path dir, String name) throws IOException, InterruptedException {
		if (service.pid().isEmpty() || !service.alive()) {
			return Optional.empty();
		}
		Map<String, Double> scrape = scrape(service.managementUrl());
		long now = System.currentTimeMillis();
		Path file = dir.resolve(LevelDir.heapHistogram(name));
		Optional<Path> histogram = service.heapHistogram(file);
		if (histogram.isEmpty()) {
			return Optional.empty();
		}
		if (scrape.isEmpty()) {
			// Under the heaviest loads the management port may not answer within 5 s; once more, after the full GC.
			scrape = scrape(service.managementUrl());
		}
		double inFlight = scrape.getOrDefault("server_connections", 0.0);
		HeapSnapshot snapshot = new HeapSnapshot(now, scrape.isEmpty() ? Double.NaN : inFlight, liveBytes(file),
				scrape.getOrDefault("heap_max_bytes", Double.NaN), scrape.getOrDefault("rss_bytes", Double.NaN),
				file.getFileName().toString());
		json.writeValue(dir.resolve(LevelDir.heapJson(name)).toFile(), snapshot);
		return Optional.of(snapshot);
	}

	/** The snapshot {@code name} in {@code dir}, or empty when it was never taken. */
	public static Optional<HeapSnapshot> read(Path dir, String name) {
		Path file = dir.resolve(LevelDir.heapJson(name));
		return Files.isRegularFile(file) ? Optional.of(json.readValue(file.toFile(), HeapSnapshot.class)) : Optional.empty();
	}

	/**
	 * The live heap a class histogram shows: its {@code Total} line less the JVM's heap filler arrays
	 * ({@code jdk.internal.vm.FillerElement[]}: dead space a full GC left in place rather than move what is around
	 * it, not objects anyone holds; 20% of the total in some snapshots). NaN when the total is absent (jcmd failed or
	 * timed out).
	 */
	public static double liveBytes(Path histogram) throws IOException {
		double total = Double.NaN;
		double fillers = 0;
		for (String line : Files.readAllLines(histogram)) {
			String[] fields = line.trim().split("\\s+");
			if (fields.length == 3 && fields[0].equals("Total")) {
				total = Double.parseDouble(fields[2]);
			}
			else if (fields.length >= 4 && fields[3].startsWith(FILLER)) {
				fillers += Double.parseDouble(fields[2]);
			}
		}
		return total - fillers;
	}

	/** The class histogram's name of the JVM's heap filler arrays. */
	public static final String FILLER = "[Ljdk.internal.vm.FillerElement;";

	private static Map<String, Double> scrape(String managementUrl) {
		try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build()) {
			HttpRequest request = HttpRequest.newBuilder(URI.create(managementUrl + "/actuator/prometheus")).timeout(Duration.ofSeconds(5)).build();
			HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
			return (response.statusCode() == 200) ? Prometheus.select(response.body()) : Map.of();
		}
		catch (IOException ex) {
			return Map.of();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return Map.of();
		}
	}

}
