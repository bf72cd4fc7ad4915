package lab.gatling;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import lab.layout.LevelDir;
import lab.layout.ProgressLine;

import com.sun.management.OperatingSystemMXBean;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Accounts for every request by the second it was <em>sent</em>: each send is counted, and each outcome (its
 * response time and kind) goes into the histograms and counts of its send second, however late it comes. A request
 * sent in the load window that times out 30 s later still belongs to the window; one that never completes shows as
 * sent without an outcome (unanswered). Once a second the seconds that changed are appended to disk, so raw data is
 * written as it is produced and logs of several injectors merge exactly.
 *
 * <p>Files in {@code outDir}:
 * <ul>
 * <li>{@code latency.hlog}: HdrHistogram interval log, values in microseconds, one {@code ok} and one {@code ko}
 * histogram per send second that changed (an interval's start is its send second; a second may appear several
 * times, the reader adds them up);</li>
 * <li>{@code requests.csv}: per send second that changed, the new sends and outcomes by kind (added up the same
 * way);</li>
 * <li>{@code completions.csv}: per wall-clock second, the responses that arrived (any status) and the requests that
 * ended without one (timeout, refused, reset): what a stall detector needs;</li>
 * <li>{@code cpu.csv}: per second this JVM's CPU seconds so far and the host's processors;</li>
 * <li>{@code load-window.csv}: written at the end;</li>
 * <li>{@code latency-by-request.hlog}: for a mix of named requests, the same histograms per request, tagged
 * {@code ok-<i>} and {@code ko-<i>} by its place in the mix; written once the first such outcome is filed.</li>
 * </ul>
 */
public final class LatencyRecorder implements AutoCloseable {

	public enum Kind {

		OK, KO_4XX, KO_5XX, KO_TIMEOUT, KO_CONNECTION, KO_CHECK;

		/** Whether the service answered (any status), as opposed to no response at all. */
		boolean answered() {
			return this != KO_TIMEOUT && this != KO_CONNECTION;
		}

	}

	/** What changed in one send second since the last flush. Histograms auto-resize: a second costs what it holds. */
	private static final class Second {

		final Histogram ok = new Histogram(3);

		final Histogram ko = new Histogram(3);

		final long[] outcomes = new long[Kind.values().length];

		long sent;

		/** The request's place in the mix → its successes and failures this second. */
		final Map<Integer, Histogram[]> byRequest = new TreeMap<>();

	}

	/** Send second (epoch ms at its start) → what changed since the last flush. Guarded by {@code this}. */
	private final Map<Long, Second> changed = new TreeMap<>();

	private long answered;

	private long unanswered;

	private final HistogramLogWriter log;

	private final PrintStream requests;

	private final PrintStream completions;

	private final PrintStream cpu;

	private final OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

	private final Path outDir;

	/** {@code latency-by-request.hlog}, opened at the first outcome of a named request of a mix; null until then. */
	private HistogramLogWriter byRequestLog;

	private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(runnable -> {
		Thread thread = new Thread(runnable, "lab-latency-writer");
		thread.setDaemon(true);
		return thread;
	});

	private final long startMillis = System.currentTimeMillis();

	public LatencyRecorder(Path outDir) {
		this.outDir = outDir;
		try {
			Files.createDirectories(outDir);
			this.log = log(outDir.resolve(LevelDir.LATENCY), this.startMillis, "intervals start at the second their requests were sent");
			this.requests = new PrintStream(Files.newOutputStream(outDir.resolve(LevelDir.REQUESTS)), true);
			this.completions = new PrintStream(Files.newOutputStream(outDir.resolve(LevelDir.COMPLETIONS)), true);
			this.cpu = new PrintStream(Files.newOutputStream(outDir.resolve(LevelDir.INJECTOR_CPU)), true);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		this.requests.println("send_second_epoch_ms,sent,ok,ko_4xx,ko_5xx,ko_timeout,ko_connection,ko_check");
		this.completions.println("epoch_ms,answered,unanswered");
		this.cpu.println("epoch_ms,cpu_seconds,processors");
		this.ticker.scheduleAtFixedRate(this::flush, 1, 1, TimeUnit.SECONDS);
	}

	/** Counts a request about to be sent; returns its send time (epoch ms), which its outcome is filed under. */
	public synchronized long sent() {
		long now = System.currentTimeMillis();
		second(now).sent++;
		return now;
	}

	/** The outcome of the request sent at {@code sentEpochMs}, after {@code micros}. */
	public synchronized void record(Kind kind, long sentEpochMs, long micros) {
		record(kind, sentEpochMs, micros, -1);
	}

	/** The outcome of request {@code index} of the mix (-1: not one of a mix) sent at {@code sentEpochMs}, after {@code micros}. */
	public synchronized void record(Kind kind, long sentEpochMs, long micros, int index) {
		Second second = second(sentEpochMs);
		long value = Math.max(1, micros);
		((kind == Kind.OK) ? second.ok : second.ko).recordValue(value);
		if (index >= 0) {
			second.byRequest.computeIfAbsent(index, k -> new Histogram[] { new Histogram(3), new Histogram(3) })[(kind == Kind.OK) ? 0 : 1].recordValue(value);
		}
		second.outcomes[kind.ordinal()]++;
		if (kind.answered()) {
			this.answered++;
		}
		else {
			this.unanswered++;
		}
	}

	private HistogramLogWriter byRequestLog() {
		if (this.byRequestLog == null) {
			try {
				this.byRequestLog = log(this.outDir.resolve(LevelDir.LATENCY_BY_REQUEST), this.startMillis,
						"intervals start at the second their requests were sent; tags ok-<i> and ko-<i>: request i of the mix");
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		return this.byRequestLog;
	}

	/** An interval log in {@code file}, its header written: the base time stated, so no reader guesses whether timestamps are relative. */
	private static HistogramLogWriter log(Path file, long startMillis, String comment) throws IOException {
		HistogramLogWriter log = new HistogramLogWriter(new PrintStream(Files.newOutputStream(file), true));
		log.outputLogFormatVersion();
		log.outputStartTime(startMillis);
		log.outputBaseTime(startMillis);
		log.setBaseTime(startMillis);
		log.outputComment(comment);
		log.outputLegend();
		return log;
	}

	private Second second(long epochMs) {
		return this.changed.computeIfAbsent(epochMs - Math.floorMod(epochMs, 1000L), k -> new Second());
	}

	/** The load window as the injector saw it, for the analysis to clip every series to. */
	public void writeWindow(long loadStartMillis, long steadyStartMillis, long endMillis) {
		writeWindow(LevelDir.LOAD_WINDOW, loadStartMillis, steadyStartMillis, endMillis);
	}

	/**
	 * The window as planned, written before the first request ({@code load-plan.csv}, same columns): only
	 * {@code load-window.csv}, written at the end, says the injector ran to completion.
	 */
	public void writePlan(long loadStartMillis, long steadyStartMillis, long endMillis) {
		writeWindow(LevelDir.LOAD_PLAN, loadStartMillis, steadyStartMillis, endMillis);
	}

	private void writeWindow(String file, long loadStartMillis, long steadyStartMillis, long endMillis) {
		try {
			Files.writeString(this.outDir.resolve(file), "start_epoch_ms,steady_start_epoch_ms,end_epoch_ms\n"
					+ loadStartMillis + "," + steadyStartMillis + "," + endMillis + "\n");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private synchronized void flush() {
		long now = System.currentTimeMillis();
		long ok = 0;
		long failed = 0;
		for (Map.Entry<Long, Second> entry : this.changed.entrySet()) {
			long start = entry.getKey();
			Second second = entry.getValue();
			second.ok.setTag("ok");
			second.ko.setTag("ko");
			for (Histogram histogram : new Histogram[] { second.ok, second.ko }) {
				histogram.setStartTimeStamp(start);
				histogram.setEndTimeStamp(start + 1000);
				this.log.outputIntervalHistogram(histogram);
			}
			second.byRequest.forEach((index, histograms) -> {
				histograms[0].setTag(LevelDir.requestTag("ok", index));
				histograms[1].setTag(LevelDir.requestTag("ko", index));
				for (Histogram histogram : histograms) {
					histogram.setStartTimeStamp(start);
					histogram.setEndTimeStamp(start + 1000);
					byRequestLog().outputIntervalHistogram(histogram);
				}
			});
			StringBuilder line = new StringBuilder().append(start).append(',').append(second.sent);
			for (long count : second.outcomes) {
				line.append(',').append(count);
			}
			this.requests.println(line);
			ok += second.outcomes[Kind.OK.ordinal()];
			failed += second.ok.getTotalCount() + second.ko.getTotalCount() - second.outcomes[Kind.OK.ordinal()];
		}
		this.changed.clear();
		this.completions.println(now + "," + this.answered + "," + this.unanswered);
		this.answered = 0;
		this.unanswered = 0;
		this.cpu.println(now + "," + this.os.getProcessCpuTime() / 1e9 + "," + this.os.getAvailableProcessors());
		// Once a second on stdout, read by the runner's progress bar.
		System.out.println(new ProgressLine(ok, failed).format());
	}

	@Override
	public synchronized void close() {
		this.ticker.shutdownNow();
		flush();
		this.requests.close();
		this.completions.close();
		this.cpu.close();
		this.log.close();
		if (this.byRequestLog != null) {
			this.byRequestLog.close();
		}
	}

}
