package lab.analyse.measure;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import lab.analyse.read.Latency;
import lab.analyse.read.Samples;
import lab.load.LoadWindow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Where the time went, from synthetic timers. The window is 10 s (steady from 1,000 to 11,000 ms); the service's
 * counters are sampled at its start and end, one sample before it (excluded by the clip).
 */
class BreakdownTests {

	@TempDir
	Path dir;

	static final LoadWindow WINDOW = new LoadWindow(0, 1_000, 11_000);

	/** metrics.csv rows of the service: a counter going from {@code from} at 1,000 ms to {@code to} at 11,000 ms. */
	private static void counter(List<String> rows, String series, double from, double to) {
		rows.add("500,service," + series + "," + (from / 2));
		rows.add("1000,service," + series + "," + from);
		rows.add("11000,service," + series + "," + to);
	}

	/** The service's server and client timers: their sums (s) and counts, each from a value at 1,000 ms to one at 11,000. */
	private static void timers(List<String> rows, double[] serverSum, double[] serverCount, double[] clientSum, double[] clientCount) {
		counter(rows, "server_seconds_sum", serverSum[0], serverSum[1]);
		counter(rows, "server_requests", serverCount[0], serverCount[1]);
		counter(rows, "client_seconds_sum", clientSum[0], clientSum[1]);
		counter(rows, "client_requests", clientCount[0], clientCount[1]);
	}

	/** An injector whose 1,000 successful responses took {@code millis} each. */
	private static Latency injector(long millis) {
		Latency latency = Latency.empty();
		latency.ok().recordValueWithCount(millis * 1000, 1_000);
		return latency;
	}

	private Samples samples(List<String> rows) throws Exception {
		List<String> lines = new ArrayList<>(List.of("epoch_ms,source,series,value"));
		lines.addAll(rows);
		Path csv = this.dir.resolve("metrics.csv");
		Files.write(csv, lines);
		return Samples.read(csv);
	}

	@Test
	void anEventLoopModelWhoseRequestsWaitLittleBeforeTheServersTimer() throws Exception {
		// 1,000 exchanges in the window: server sum 600 s → mean 600 ms; client 520 s → 520 ms; injector 610 ms each.
		List<String> rows = new ArrayList<>();
		timers(rows, new double[] { 100, 700 }, new double[] { 200, 1_200 }, new double[] { 50, 570 }, new double[] { 200, 1_200 });
		// Server buckets: 900 of the window's 1,000 by 0.6 s, 990 by 0.8 s, all by 1.0 s. p50: rank 500 of the 900 in
		// (0.5, 0.6]: 0.5 + 500/900 × 0.1 = 0.5556 s; p99: rank 990, the end of (0.6, 0.8]: 0.8 s.
		counter(rows, "server_le_0.5", 0, 0);
		counter(rows, "server_le_0.6", 0, 900);
		counter(rows, "server_le_0.8", 0, 990);
		counter(rows, "server_le_1.0", 0, 1_000);
		counter(rows, "server_le_+Inf", 0, 1_000);
		Breakdown b = Breakdown.of(samples(rows), WINDOW, injector(610));
		assertThat(b.injectorMeanMs()).isCloseTo(610, within(1.0));
		assertThat(b.serverMeanMs()).isCloseTo(600, within(1e-9));
		assertThat(b.clientMeanMs()).isCloseTo(520, within(1e-9));
		assertThat(b.beforeServerMs()).isCloseTo(10, within(1.0));
		assertThat(b.outsideCallMs()).isCloseTo(80, within(1e-9));
		// The parts add up to the injector's mean, and the call (the downstream's 500 ms) is the biggest part.
		assertThat(b.beforeServerMs() + b.outsideCallMs() + b.clientMeanMs()).isCloseTo(b.injectorMeanMs(), within(1e-9));
		assertThat(b.clientMeanMs()).isGreaterThan(b.beforeServerMs()).isGreaterThan(b.outsideCallMs());
		assertThat(b.serverP50Ms()).isCloseTo(555.6, within(0.1));
		assertThat(b.serverP99Ms()).isCloseTo(800, within(1e-6));
		assertThat(b.clientP99Ms()).as("no client buckets sampled").isNaN();
	}

	@Test
	void aThreadPerRequestModelWhoseRequestsQueueBeforeTheServersTimer() throws Exception {
		// The platform pool past its 200 threads: the injector saw 1,300 ms, the server timer 510 (it starts once a thread
		// has the request), so 790 ms were spent queued before it.
		List<String> rows = new ArrayList<>();
		timers(rows, new double[] { 0, 204 }, new double[] { 0, 400 }, new double[] { 0, 202 }, new double[] { 0, 400 });
		Breakdown b = Breakdown.of(samples(rows), WINDOW, injector(1_300));
		assertThat(b.serverMeanMs()).isCloseTo(510, within(1e-9));
		assertThat(b.beforeServerMs()).isCloseTo(790, within(1.5));
		assertThat(b.outsideCallMs()).isCloseTo(5, within(1e-9));
	}

	@Test
	void aServiceWithoutPerRequestTimersHasOnlyTheInjectorsPart() throws Exception {
		Breakdown b = Breakdown.of(samples(List.of()), WINDOW, injector(700));
		assertThat(b.injectorMeanMs()).isCloseTo(700, within(1.0));
		assertThat(b.serverMeanMs()).isNaN();
		assertThat(b.beforeServerMs()).isNaN();
		assertThat(b.serverP99Ms()).isNaN();
	}

}
