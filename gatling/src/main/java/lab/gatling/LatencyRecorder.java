package lab.gatling;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import com.sun.management.OperatingSystemMXBean;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.HdrHistogram.Recorder;

/**
 * Records every response time into HdrHistograms (OK and KO apart) and writes them once a second as an interval
 * log, so raw data is on disk while the load runs, percentiles can be taken over any window and logs of several
 * injectors merge exactly. Also counts failures by kind and prints one progress line a second for the runner.
 *
 * <p>Files in {@code outDir}: {@code latency.hlog} (interval histograms tagged {@code ok} / {@code ko}, values in
 * microseconds), {@code requests.csv} (per second: ok and KO counts by kind), {@code cpu.csv} (per second: this
 * JVM's CPU seconds so far and the host's processors, so an injector on another host still reports how busy it
 * was), {@code load-window.csv}.
 */
public final class LatencyRecorder implements AutoCloseable {

	/** One hour in microseconds: no response time the lab can see exceeds it. */
	private static final long HIGHEST_MICROS = 3_600_000_000L;

	/** Printed once a second on stdout, parsed by the runner's progress bar. */
	public static final String PROGRESS_PREFIX = "LAB-PROGRESS";

	public enum Kind {

		OK, KO_4XX, KO_5XX, KO_TIMEOUT, KO_CONNECTION, KO_CHECK

	}

	private final Recorder ok = new Recorder(HIGHEST_MICROS, 3);

	private final Recorder ko = new Recorder(HIGHEST_MICROS, 3);

	private final LongAdder[] counts = new LongAdder[Kind.values().length];

	private final long[] written = new long[Kind.values().length];

	private final HistogramLogWriter log;

	private final PrintStream requests;

	private final PrintStream cpu;

	private final OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

	private final Path outDir;

	private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(runnable -> {
		Thread thread = new Thread(runnable, "lab-latency-writer");
		thread.setDaemon(true);
		return thread;
	});

	private final long startMillis = System.currentTimeMillis();

	private Histogram okInterval;

	private Histogram koInterval;

	public LatencyRecorder(Path outDir) {
		this.outDir = outDir;
		for (int i = 0; i < this.counts.length; i++) {
			this.counts[i] = new LongAdder();
		}
		try {
			Files.createDirectories(outDir);
			this.log = new HistogramLogWriter(new PrintStream(Files.newOutputStream(outDir.resolve("latency.hlog")), true));
			this.requests = new PrintStream(Files.newOutputStream(outDir.resolve("requests.csv")), true);
			this.cpu = new PrintStream(Files.newOutputStream(outDir.resolve("cpu.csv")), true);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		this.log.outputLogFormatVersion();
		this.log.outputStartTime(this.startMillis);
		// Stated, so readers never have to guess whether the interval timestamps are relative.
		this.log.outputBaseTime(this.startMillis);
		this.log.setBaseTime(this.startMillis);
		this.log.outputLegend();
		this.requests.println("epoch_ms,ok,ko_4xx,ko_5xx,ko_timeout,ko_connection,ko_check");
		this.cpu.println("epoch_ms,cpu_seconds,processors");
		this.ticker.scheduleAtFixedRate(this::flush, 1, 1, TimeUnit.SECONDS);
	}

	public void record(Kind kind, long micros) {
		long value = Math.max(1, Math.min(micros, HIGHEST_MICROS));
		((kind == Kind.OK) ? this.ok : this.ko).recordValue(value);
		this.counts[kind.ordinal()].increment();
	}

	/** The load window as the injector saw it, for the analysis to clip every series to. */
	public void writeWindow(long loadStartMillis, int rampSeconds, long endMillis) {
		try {
			Files.writeString(this.outDir.resolve("load-window.csv"), "start_epoch_ms,steady_start_epoch_ms,end_epoch_ms\n"
					+ loadStartMillis + "," + (loadStartMillis + rampSeconds * 1000L) + "," + endMillis + "\n");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private synchronized void flush() {
		this.okInterval = this.ok.getIntervalHistogram(this.okInterval);
		this.koInterval = this.ko.getIntervalHistogram(this.koInterval);
		this.okInterval.setTag("ok");
		this.koInterval.setTag("ko");
		this.log.outputIntervalHistogram(this.okInterval);
		this.log.outputIntervalHistogram(this.koInterval);
		StringBuilder line = new StringBuilder().append(System.currentTimeMillis());
		long[] delta = new long[this.counts.length];
		for (int i = 0; i < this.counts.length; i++) {
			long total = this.counts[i].sum();
			delta[i] = total - this.written[i];
			this.written[i] = total;
			line.append(',').append(delta[i]);
		}
		this.requests.println(line);
		this.cpu.println(System.currentTimeMillis() + "," + this.os.getProcessCpuTime() / 1e9 + "," + this.os.getAvailableProcessors());
		long failed = 0;
		for (int i = 1; i < delta.length; i++) {
			failed += delta[i];
		}
		System.out.println(PROGRESS_PREFIX + " ok=" + delta[0] + " ko=" + failed);
	}

	@Override
	public synchronized void close() {
		this.ticker.shutdownNow();
		flush();
		this.requests.close();
		this.cpu.close();
		this.log.close();
	}

}
