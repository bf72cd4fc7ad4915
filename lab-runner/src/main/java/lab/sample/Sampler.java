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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Once a second: scrapes {@code /actuator/prometheus} of each service, and reads the CPU time of each watched
 * process from {@code /proc/<pid>/stat} (the injector has no metrics endpoint). Each sample is appended to
 * {@code metrics.csv} as {@code epoch_ms,source,series,value} the moment it is taken, stamped with its own time.
 */
public final class Sampler implements AutoCloseable {

	private static final double TICKS_PER_SECOND = 100.0;

	private final PrintWriter csv;

	private final Map<String, String> endpoints = new ConcurrentHashMap<>();

	private final Map<String, Long> processes = new ConcurrentHashMap<>();

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(800)).build();

	private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
		Thread thread = new Thread(r, "lab-sampler");
		thread.setDaemon(true);
		return thread;
	});

	public Sampler(Path file) throws IOException {
		this.csv = new PrintWriter(Files.newBufferedWriter(file));
		this.csv.println("epoch_ms,source,series,value");
		this.ticker.scheduleAtFixedRate(this::sample, 0, 1, TimeUnit.SECONDS);
	}

	public void watchEndpoint(String source, String baseUrl) {
		this.endpoints.put(source, baseUrl + "/actuator/prometheus");
	}

	public void watchProcess(String source, long pid) {
		this.processes.put(source, pid);
	}

	private void sample() {
		this.endpoints.forEach((source, url) -> {
			try {
				HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMillis(900)).build();
				HttpResponse<String> response = this.client.send(request, HttpResponse.BodyHandlers.ofString());
				long now = System.currentTimeMillis();
				if (response.statusCode() == 200) {
					Prometheus.select(response.body()).forEach((series, value) -> write(now, source, series, value));
				}
			}
			catch (IOException ex) {
				// a missed sample: the analysis works on the samples that exist, by their timestamps
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		this.processes.forEach((source, pid) -> {
			double seconds = cpuSeconds(pid);
			if (seconds >= 0) {
				write(System.currentTimeMillis(), source, "proc_cpu_seconds", seconds);
			}
		});
		synchronized (this.csv) {
			this.csv.flush();
		}
	}

	private void write(long epochMs, String source, String series, double value) {
		synchronized (this.csv) {
			this.csv.println(epochMs + "," + source + "," + series + "," + value);
		}
	}

	/** utime + stime of a process (fields 14 and 15 of /proc/<pid>/stat), or -1 when it is gone. */
	static double cpuSeconds(long pid) {
		try {
			// readAllLines, not readString: /proc files report size 0, and readString can return a truncated read.
			String stat = Files.readAllLines(Path.of("/proc/" + pid + "/stat")).get(0);
			String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
			return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / TICKS_PER_SECOND;
		}
		catch (IOException | RuntimeException ex) {
			return -1;
		}
	}

	@Override
	public void close() {
		this.ticker.shutdown();
		try {
			this.ticker.awaitTermination(5, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		synchronized (this.csv) {
			this.csv.close();
		}
		this.client.close();
	}

}
