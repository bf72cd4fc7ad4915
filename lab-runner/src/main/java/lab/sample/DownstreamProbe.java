package lab.sample;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The downstream as a client sees it: {@value #PER_SECOND} requests a second straight to
 * {@code GET /address/{delayMs}}, each written to {@code probe.csv} as {@code send_epoch_ms,latency_ms,status} when
 * it ends (status -1: no response). The runner runs on the harness cores, so a probe waits for the same CPU the
 * injector and the downstream share: its lateness beyond the delay includes event-loop backlog on arrival and the
 * write, which the downstream's own histogram (handler entry to timer) cannot see.
 */
public final class DownstreamProbe implements AutoCloseable {

	static final int PER_SECOND = 10;

	private final PrintWriter csv;

	private final HttpClient client = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(2))
		.build();

	private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
		Thread thread = new Thread(r, "lab-downstream-probe");
		thread.setDaemon(true);
		return thread;
	});

	private final HttpRequest request;

	private volatile boolean closed;

	public DownstreamProbe(String downstreamUrl, long delayMs, Path file) throws IOException {
		this.csv = new PrintWriter(Files.newBufferedWriter(file));
		this.csv.println("send_epoch_ms,latency_ms,status");
		this.csv.flush();
		this.request = HttpRequest.newBuilder(URI.create(downstreamUrl + "/address/" + delayMs))
			.timeout(Duration.ofMillis(delayMs + 10_000))
			.header("X-Lab-Probe", "1")
			.build();
		this.ticker.scheduleAtFixedRate(this::send, 0, 1000 / PER_SECOND, TimeUnit.MILLISECONDS);
	}

	private void send() {
		long sent = System.currentTimeMillis();
		long start = System.nanoTime();
		this.client.sendAsync(this.request, HttpResponse.BodyHandlers.discarding())
			.whenComplete((response, failure) -> write(sent, (System.nanoTime() - start) / 1e6,
					(failure == null) ? response.statusCode() : -1));
	}

	private void write(long sent, double millis, int status) {
		synchronized (this.csv) {
			if (!this.closed) {
				this.csv.printf(java.util.Locale.ROOT, "%d,%.3f,%d%n", sent, millis, status);
				this.csv.flush();
			}
		}
	}

	/** Stops sending; probes still in flight are dropped (they were sent after the window ended). */
	@Override
	public void close() {
		this.ticker.shutdownNow();
		synchronized (this.csv) {
			this.closed = true;
			this.csv.close();
		}
		this.client.shutdownNow();
	}

}
