package lab.analyse;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

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
	static final long START = 1_790_000_000_000L;

	static final long STEADY = START + 2_000;

	static final long END = START + 12_000;

	private GoldenFixtures() {
	}

	public static Path write(Path results) throws IOException {
		Files.writeString(results.resolve("manifest.json"), """
				{"startedAt":"2026-09-21T18:13:20Z","host":{"hostname":"golden","cores":2},"profile":"t2-micro",
				 "scenario":{"name":"golden","description":"hand-checked fixture","model":"CLOSED","delayMs":500}}
				""");
		// OK level: the downstream's overhead lands in its (5 ms, 10 ms] bucket → p99 9.95 ms (see buckets below).
		level(results.resolve("app-webflux/users-100"), "app-webflux", 0.01, true, null, false, List.of());
		// INVALID level: same numbers, but the overhead lands in the (50 ms, 90 ms] bucket → p99 89.6 ms.
		level(results.resolve("app-webflux/users-200"), "app-webflux", 0.09, true, null, false, List.of());
		// FAILED level: the service died with an OutOfMemoryError.
		level(results.resolve("app-tomcat-loom/users-100"), "app-tomcat-loom", 0.01, false, 137, true,
				List.of("app-tomcat-loom/service.log"));
		return results;
	}

	private static void level(Path dir, String variant, double downstreamBucket, boolean alive, Integer exitCode,
			boolean oom, List<String> evidence) throws IOException {
		Files.createDirectories(dir);
		int users = dir.getFileName().toString().equals("users-200") ? 200 : 100;
		Files.writeString(dir.resolve("level.json"), String.format("""
				{"variant":"%s","users":%d,"ratePerSecond":0,"cappedFrom":0,"delayMs":500,"repeat":1,"warmedUp":true,
				 "serviceCpus":1,"injectorCpus":1,"serviceAlive":%s,"exitCode":%s,"outOfMemory":%s,"injectorExitCode":0,
				 "evidence":%s,"problems":[]}
				""", variant, users, alive, exitCode, oom, evidence.isEmpty() ? "[]" : "[\"" + evidence.get(0) + "\"]"));
		Files.writeString(dir.resolve("load-window.csv"), "start_epoch_ms,steady_start_epoch_ms,end_epoch_ms\n"
				+ START + "," + STEADY + "," + END + "\n");
		latency(dir.resolve("latency.hlog"));
		requests(dir.resolve("requests.csv"));
		metrics(dir.resolve("metrics.csv"), downstreamBucket);
	}

	/**
	 * 13 one-second intervals from START. The 10 whose midpoints lie in the window (+2,500 … +11,500)
	 * each hold 180 OK at 510 ms, 10 OK at 900 ms and 2 KO (5xx) at 20 ms, +1 KO timeout in the first: 1,900 OK,
	 * 21 KO. Ramp and drain intervals (midpoints +500, +1,500, +12,500) hold 50 OK at 2,000 ms each,
	 * which must not count. p50: rank 950 of 1,900 → 510 ms; p95: rank 1,805 > 1,800 → 900 ms; p99 = max = 900 ms.
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
	 * Rows stamped at the end of their second. In the window (midpoint = stamp - 500 in [+2,000, +12,000]):
	 * stamps +3,000 … +12,000 → 10 rows: 190 OK and 2 5xx each, one timeout in the first: 1,900 OK, 20 5xx,
	 * 1 timeout → 1,921 requests, 21 errors = 1.09 % (under the 5 % FAILED threshold). Rows outside carry 999 5xx
	 * that must not count.
	 */
	private static void requests(Path file) throws IOException {
		StringBuilder csv = new StringBuilder("epoch_ms,ok,ko_4xx,ko_5xx,ko_timeout,ko_connection,ko_check\n");
		for (long stamp = START + 1000; stamp <= START + 13_000; stamp += 1000) {
			boolean inWindow = stamp - 500 >= STEADY && stamp - 500 <= END;
			csv.append(stamp).append(inWindow ? ",190,0,2," + ((stamp == STEADY + 1000) ? 1 : 0) + ",0,0\n" : ",50,0,999,0,0,0\n");
		}
		Files.writeString(file, csv.toString());
	}

	/**
	 * Service CPU: 10 → 15 s between +2,000 and +12,000, the +8,000 sample missing → 5 s / 10 s = 50 %;
	 * 0.5 CPU s/s over (1,900 + 21) / 10 = 192.1 req/s → 2.6028 ms per request. The sample at +13,000 (20 s)
	 * lies outside. GC pause sum 1.0 → 1.2, reset to 0.1, → 0.3: growth 0.2 + 0.1 + 0.2 = 0.5 s / 10 s = 5 %.
	 * Heap peaks at 100 MiB in the window (300 MiB outside), RSS 200 MiB, 30 native and 150 virtual threads,
	 * pinned 0 → 3 = 3 events. Context switches: voluntary 1,000 → 3,000 plus involuntary 100 → 300, joined by
	 * timestamp → (3,300 - 1,100) / 10 s = 220 /s. Injector CPU 5 → 7 s = 20 %, downstream 3 → 6 s = 30 %:
	 * their shared core is 50 % busy. Downstream overhead buckets (cumulative, delta over the window): the bound
	 * below → 0, le=bucket → 1,000, +Inf → 1,000: p99 = rank 990 → lower + 0.99 × (bucket - lower) s, i.e.
	 * 0.005 + 0.99 × 0.005 = 9.95 ms for the 0.01 bucket (OK) and 0.05 + 0.99 × 0.04 = 89.6 ms for the 0.09
	 * bucket (> 50 ms → INVALID).
	 */
	private static void metrics(Path file, double bucket) throws IOException {
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
		row(csv, a, "service", "ctx_voluntary", 1000);
		row(csv, a + 10000, "service", "ctx_voluntary", 3000);
		row(csv, a, "service", "ctx_involuntary", 100);
		row(csv, a + 10000, "service", "ctx_involuntary", 300);
		row(csv, a, "injector", "proc_cpu_seconds", 5);
		row(csv, a + 10000, "injector", "proc_cpu_seconds", 7);
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
