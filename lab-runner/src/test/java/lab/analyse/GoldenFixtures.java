package lab.analyse;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import lab.analyse.read.Halves;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * A small results directory with numbers chosen so every figure of the summary can be checked by hand. The hand
 * arithmetic is written next to each number; {@link AnalyserTests} asserts the exact results.
 *
 * <p>Times are offsets in ms from START. Every level: ramp +0 → +2,000, steady window +2,000 → +12,000 (10 s),
 * delay 500 ms, 100 users → ceiling 100 / 0.5 s = 200 rps.
 */
public final class GoldenFixtures {

	/** Epoch ms (2026-09-21T18:13:20Z): a real date, as in every recorded log. Offsets below are from here. */
	public static final long START = 1_790_000_000_000L;

	static final long STEADY = START + 2_000;

	static final long END = START + 12_000;

	private GoldenFixtures() {
	}

	public static Path write(Path results) throws IOException {
		Files.writeString(results.resolve("manifest.json"), """
				{"startedAt":"2026-09-21T18:13:20Z","host":{"hostname":"golden","cores":2},"profile":"t2-micro",
				 "scenario":{"name":"golden","description":"hand-checked fixture","model":"CLOSED","delayMs":500}}
				""");
		// OK level: the downstream's own overhead lands in its (5 ms, 10 ms] bucket → p99 9.95 ms; probes 5 ms late.
		level(results.resolve("app-webflux/users-100"), "app-webflux", 0.01, 5, true, null, false, List.of(), Fault.NONE);
		// INVALID level: same numbers, but 2 of 100 probes answered 90 ms late → p99 90 ms > 50 ms.
		level(results.resolve("app-webflux/users-200"), "app-webflux", 0.09, 90, true, null, false, List.of(), Fault.NONE);
		// FAILED level: the service died with an OutOfMemoryError.
		level(results.resolve("app-tomcat-loom/users-100"), "app-tomcat-loom", 0.01, 5, false, 137, true,
				List.of("app-tomcat-loom/service.log"), Fault.NONE);
		// FAILED level: the service answered nothing for 3 s (see completions below).
		level(results.resolve("app-tomcat-platform/users-100"), "app-tomcat-platform", 0.01, 5, true, null, false, List.of(), Fault.STALL);
		// INVALID level: no probe, no CPU sample of the harness: two checks that could not be computed.
		level(results.resolve("app-webflux-loom/users-100"), "app-webflux-loom", 0.01, 5, true, null, false, List.of(), Fault.NO_DATA);
		return results;
	}

	enum Fault {

		NONE, STALL, NO_DATA

	}

	private static void level(Path dir, String variant, double downstreamBucket, int lateProbesMs, boolean alive, Integer exitCode,
			boolean oom, List<String> evidence, Fault fault) throws IOException {
		Files.createDirectories(dir);
		int users = dir.getFileName().toString().equals("users-200") ? 200 : 100;
		Files.writeString(dir.resolve("level.json"), String.format("""
				{"variant":"%s","users":%d,"ratePerSecond":0,"cappedFrom":0,"delayMs":500,"repeat":1,"warmedUp":true,
				 "serviceCpus":1,"injectorCpus":1,"serviceAlive":%s,"exitCode":%s,"outOfMemory":%s,"injectorExitCode":0,
				 "evidence":%s,"problems":[],"requestTimeoutMs":30000,"downstreamWatched":true,"downstreamAlive":true}
				""", variant, users, alive, exitCode, oom, evidence.isEmpty() ? "[]" : "[\"" + evidence.get(0) + "\"]"));
		Files.writeString(dir.resolve("load-window.csv"), "start_epoch_ms,steady_start_epoch_ms,end_epoch_ms\n"
				+ START + "," + STEADY + "," + END + "\n");
		latency(dir.resolve("latency.hlog"));
		requests(dir.resolve("requests.csv"));
		completions(dir.resolve("completions.csv"), fault == Fault.STALL);
		metrics(dir.resolve("metrics.csv"), downstreamBucket, fault != Fault.NO_DATA);
		if (fault != Fault.NO_DATA) {
			probes(dir.resolve("probe.csv"), lateProbesMs);
		}
	}

	/**
	 * 13 one-second intervals keyed by send second from START. The 10 whose midpoints lie in the window (+2,500 …
	 * +11,500) each hold 180 OK at 510 ms, 10 OK at 900 ms and 2 KO (5xx) at 20 ms, +1 KO timeout at 30 s in the
	 * first: 1,900 OK, 21 KO. Ramp and drain intervals (midpoints +500, +1,500, +12,500) hold 50 OK at 2,000 ms
	 * each, which must not count. Successes: p50 rank 950 of 1,900 → 510 ms; p95 rank 1,805 > 1,800 → 900 ms;
	 * p99 = max = 900 ms. All requests (with the 2 unanswered of requests.csv at the 30 s request timeout): 1,923
	 * values, 20 at 20 ms, 1,800 at 510, 100 at 900, 3 at 30 s: p50 rank 962 → 510; p95 rank 1,827 → 900; p99 rank
	 * 1,904 → 900; max 30,000 ms.
	 */
	private static void latency(Path file) throws IOException {
		try (PrintStream out = new PrintStream(Files.newOutputStream(file))) {
			HistogramLogWriter log = new HistogramLogWriter(out);
			log.outputStartTime(START);
			log.outputBaseTime(START);
			log.setBaseTime(START);
			log.outputLegend();
			for (int i = 0; i < 13; i++) {
				long from = START + i * 1000L;
				Histogram ok = new Histogram(3_600_000_000L, 3);
				Histogram ko = new Histogram(3_600_000_000L, 3);
				boolean inWindow = i >= 2 && i < 12;
				if (inWindow) {
					ok.recordValueWithCount(510_000, 180);
					ok.recordValueWithCount(900_000, 10);
					ko.recordValueWithCount(20_000, 2);
					if (i == 2) {
						ko.recordValue(30_000_000);
					}
				}
				else {
					ok.recordValueWithCount(2_000_000, 50);
				}
				for (Histogram h : List.of(ok, ko)) {
					h.setStartTimeStamp(from);
					h.setEndTimeStamp(from + 1000);
				}
				ok.setTag("ok");
				ko.setTag("ko");
				log.outputIntervalHistogram(ok);
				log.outputIntervalHistogram(ko);
			}
		}
	}

	/**
	 * Rows keyed by send second (its start), several rows for one second added up. In the window (start + 500 in
	 * [+2,000, +12,000]): seconds +2,000 … +11,000 → 10 seconds of 192 sent, 190 OK and 2 5xx each; second +2,000
	 * has a second row, written 30 s later, with 1 more sent request that timed out (send-time attribution: it
	 * counts in the window); second +5,000 sent 2 more that never got an outcome (unanswered). Sent 1,923: 1,900 OK,
	 * 20 5xx, 1 timeout, 2 unanswered → 23 errors = 1.196 % (under the 5 % FAILED threshold). Rows of seconds +0,
	 * +1,000 (ramp) and +12,000 (after the end) carry 999 5xx that must not count.
	 */
	private static void requests(Path file) throws IOException {
		StringBuilder csv = new StringBuilder("send_second_epoch_ms,sent,ok,ko_4xx,ko_5xx,ko_timeout,ko_connection,ko_check\n");
		for (long second = START; second <= START + 12_000; second += 1000) {
			boolean inWindow = second + 500 >= STEADY && second + 500 <= END;
			if (inWindow) {
				csv.append(second).append(',').append((second == START + 5_000) ? 194 : 192).append(",190,0,2,0,0,0\n");
			}
			else {
				csv.append(second).append(",1049,50,0,999,0,0,0\n");
			}
		}
		csv.append(STEADY).append(",1,0,0,0,1,0,0\n");
		Files.writeString(file, csv.toString());
	}

	/**
	 * Responses per wall-clock second, stamped at its end; a row counts when its middle is in the window (stamps
	 * +3,000 … +12,000). Every second answers 192, except with {@code stall} the seconds stamped +5,000, +6,000 and
	 * +7,000 answer nothing: 3 silent seconds from +4,000 ≥ the 2 s a 500 ms delay allows (2 × delay, at least 2 s)
	 * → FAILED "stalled 3 s at +4 s".
	 */
	private static void completions(Path file, boolean stall) throws IOException {
		StringBuilder csv = new StringBuilder("epoch_ms,answered,unanswered\n");
		for (long stamp = START + 1000; stamp <= START + 13_000; stamp += 1000) {
			boolean silent = stall && stamp >= START + 5_000 && stamp <= START + 7_000;
			csv.append(stamp).append(',').append(silent ? 0 : 192).append(",0\n");
		}
		Files.writeString(file, csv.toString());
	}

	/**
	 * 100 probes sent every 100 ms from the steady start (all in the window), 98 answered 505 ms after they were sent
	 * (5 ms late) and 2 answered {@code 500 + late} ms: p99 by nearest rank = the 99th of 100 sorted = {@code late}
	 * (5 → 5 ms, OK; 90 → 90 ms > max(50 ms, 10 % of 500 ms) → INVALID). A probe sent before the window must not count.
	 */
	private static void probes(Path file, int late) throws IOException {
		StringBuilder csv = new StringBuilder("send_epoch_ms,latency_ms,status\n");
		csv.append(START).append(",9999.0,200\n");
		for (int i = 0; i < 100; i++) {
			csv.append(STEADY + i * 100L).append(',').append((i < 98) ? 505.0 : 500.0 + late).append(",200\n");
		}
		Files.writeString(file, csv.toString());
	}

	/**
	 * Service CPU: 10 → 15 s between +2,000 and +12,000, the +8,000 sample missing → 5 s / 10 s = 50 %;
	 * 0.5 CPU s/s over 1,923 sent / 10 s = 192.3 req/s → 2.6001 ms per request. The sample at +13,000 (20 s)
	 * lies outside. GC pause sum 1.0 → 1.2, reset to 0.1, → 0.3: growth 0.2 + 0.1 + 0.2 = 0.5 s / 10 s = 5 %.
	 * Heap peaks at 100 MiB in the window (300 MiB outside), RSS 200 MiB, 30 native and 150 virtual threads,
	 * pinned 0 → 3 = 3 events. The JIT's threads used 1.0 → 1.2 s CPU: 0.2 s / 10 s = 2 % (under 10 %:
 * warm); its elapsed compile counter (9,000 → 19,000 ms, 100 %) is only the fallback, not read when the threads' CPU is there. Halves (middle
 * +7,000): the first [+2,000, +7,000] from the samples at +2,000 and +6,000 (10 → 12 s CPU, GC 1.0 → 1.2 s: 0.45 s
 * mutator per s) over 963 sent (192 × 4 + 194 + the late timeout's 1) / 5 s = 192.6 /s → 2.336 ms; the second
 * [+7,000, +12,000] from +10,000 and +12,000 (14 → 15 s over 2 s, GC 0.1 → 0.3 over 4 s: 0.45) over 960 / 5 s
 * = 192 /s → 2.344 ms: the first half 0.3 % cheaper, stationary. Context switches: voluntary 1,000 → 3,000 plus involuntary 100 → 300, joined by
	 * timestamp → (3,300 - 1,100) / 10 s = 220 /s. Injector CPU 5 → 7 s = 20 %, downstream 3 → 6 s = 30 %; the
	 * harness core (/proc/stat, source host) busy 100 → 105 s of 1,000 → 1,010 s: 50 % busy. Downstream overhead buckets (cumulative, delta over the window): the bound
	 * below → 0, le=bucket → 1,000, +Inf → 1,000: p99 = rank 990 → lower + 0.99 × (bucket - lower) s, i.e.
	 * 0.005 + 0.99 × 0.005 = 9.95 ms for the 0.01 bucket (OK) and 0.05 + 0.99 × 0.04 = 89.6 ms for the 0.09
	 * bucket (> 50 ms → INVALID).
	 */
	private static void metrics(Path file, double bucket, boolean harnessSampled) throws IOException {
		long a = STEADY;
		StringBuilder csv = new StringBuilder("epoch_ms,source,series,value\n");
		row(csv, a, "service", "proc_cpu_seconds", 10);
		row(csv, a + 2000, "service", "proc_cpu_seconds", 11);
		row(csv, a + 4000, "service", "proc_cpu_seconds", 12);
		row(csv, a + 8000, "service", "proc_cpu_seconds", 14);
		row(csv, a + 10000, "service", "proc_cpu_seconds", 15);
		row(csv, a + 11000, "service", "proc_cpu_seconds", 20);
		row(csv, a, "service", "gc_pause_seconds", 1.0);
		row(csv, a + 4000, "service", "gc_pause_seconds", 1.2);
		row(csv, a + 6000, "service", "gc_pause_seconds", 0.1);
		row(csv, a + 10000, "service", "gc_pause_seconds", 0.3);
		row(csv, a, "service", "heap_used_bytes", 50 * 1048576.0);
		row(csv, a + 5000, "service", "heap_used_bytes", 100 * 1048576.0);
		row(csv, a - 1000, "service", "heap_used_bytes", 300 * 1048576.0);
		row(csv, a + 5000, "service", "rss_bytes", 200 * 1048576.0);
		row(csv, a + 5000, "service", "native_threads", 30);
		row(csv, a + 5000, "service", "virtual_threads", 150);
		row(csv, a, "service", "pinned_count", 0);
		row(csv, a + 10000, "service", "pinned_count", 3);
		row(csv, a, "service", "jit_cpu_seconds", 1.0);
		row(csv, a + 10000, "service", "jit_cpu_seconds", 1.2);
		row(csv, a, "service", "jit_compile_ms", 9000);
		row(csv, a + 10000, "service", "jit_compile_ms", 19000);
		row(csv, a, "service", "ctx_voluntary", 1000);
		row(csv, a + 10000, "service", "ctx_voluntary", 3000);
		row(csv, a, "service", "ctx_involuntary", 100);
		row(csv, a + 10000, "service", "ctx_involuntary", 300);
		if (harnessSampled) {
			row(csv, a, "injector", "proc_cpu_seconds", 5);
			row(csv, a + 10000, "injector", "proc_cpu_seconds", 7);
			row(csv, a, "host", "cpu_busy_seconds", 100);
			row(csv, a + 10000, "host", "cpu_busy_seconds", 105);
			row(csv, a, "host", "cpu_total_seconds", 1000);
			row(csv, a + 10000, "host", "cpu_total_seconds", 1010);
		}
		row(csv, a, "downstream", "proc_cpu_seconds", 3);
		row(csv, a + 10000, "downstream", "proc_cpu_seconds", 6);
		double lower = (bucket == 0.01) ? 0.005 : 0.05;
		for (long t : new long[] { a, a + 10000 }) {
			double count = (t == a) ? 0 : 1000;
			row(csv, t, "downstream", "overhead_le_" + lower, 0);
			row(csv, t, "downstream", "overhead_le_" + bucket, count);
			row(csv, t, "downstream", "overhead_le_+Inf", count);
		}
		Files.writeString(file, csv.toString());
	}

	private static void row(StringBuilder csv, long t, String source, String series, double value) {
		csv.append(t).append(',').append(source).append(',').append(series).append(',').append(value).append('\n');
	}

}
