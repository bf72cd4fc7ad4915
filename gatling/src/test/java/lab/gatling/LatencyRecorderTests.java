package lab.gatling;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** Outcomes are filed under the second their request was sent, however late they come. */
class LatencyRecorderTests {

	@TempDir
	Path dir;

	@Test
	void anOutcomeIsFiledUnderItsSendSecondAndAnUnansweredRequestStaysSent() throws Exception {
		long sent;
		try (LatencyRecorder recorder = new LatencyRecorder(this.dir)) {
			// The three requests are sent in one second: not in its last 200 ms, where the third could fall in the next.
			while (System.currentTimeMillis() % 1000 > 800) {
				Thread.sleep(5);
			}
			sent = recorder.sent();
			recorder.sent();
			recorder.sent();
			recorder.record(LatencyRecorder.Kind.OK, sent, 500_000);
			// The recorder's once-a-second flush runs in between: the late timeout lands in a later row.
			Thread.sleep(1_300);
			recorder.record(LatencyRecorder.Kind.KO_TIMEOUT, sent, 30_000_000);
		}
		long second = sent - Math.floorMod(sent, 1000L);
		List<String> rows = Files.readAllLines(this.dir.resolve("requests.csv"));
		assertThat(rows.get(0)).isEqualTo("send_second_epoch_ms,sent,ok,ko_4xx,ko_5xx,ko_timeout,ko_connection,ko_check");
		long[] sums = new long[7];
		for (String row : rows.subList(1, rows.size())) {
			String[] f = row.split(",");
			assertThat(Long.parseLong(f[0])).as("every row is the send second of its requests").isEqualTo(second);
			for (int i = 0; i < 7; i++) {
				sums[i] += Long.parseLong(f[i + 1]);
			}
		}
		// 3 sent: 1 OK, 1 timeout, 1 never answered (sent - outcomes).
		assertThat(sums).containsExactly(3, 1, 0, 0, 1, 0, 0);
		assertThat(rows).as("the late timeout came in a row of its own").hasSizeGreaterThanOrEqualTo(3);
		List<String> completions = Files.readAllLines(this.dir.resolve("completions.csv"));
		assertThat(completions.stream().skip(1).mapToLong(line -> Long.parseLong(line.split(",")[1])).sum()).as("answered").isEqualTo(1);
		assertThat(completions.stream().skip(1).mapToLong(line -> Long.parseLong(line.split(",")[2])).sum()).as("no answer").isEqualTo(1);
	}

	@Test
	void aNamedRequestOfAMixIsAlsoFiledUnderItsPlaceInTheMix() throws Exception {
		try (LatencyRecorder recorder = new LatencyRecorder(this.dir)) {
			long sent = recorder.sent();
			recorder.record(LatencyRecorder.Kind.OK, sent, 2_000);
			recorder.record(LatencyRecorder.Kind.OK, recorder.sent(), 3_000, 0);
			recorder.record(LatencyRecorder.Kind.KO_5XX, recorder.sent(), 4_000, 1);
			recorder.record(LatencyRecorder.Kind.OK, recorder.sent(), 5_000, 1);
		}
		java.util.Map<String, Long> counts = new java.util.TreeMap<>();
		org.HdrHistogram.HistogramLogReader reader = new org.HdrHistogram.HistogramLogReader(this.dir.resolve("latency-by-request.hlog").toFile());
		for (var interval = reader.nextIntervalHistogram(); interval != null; interval = reader.nextIntervalHistogram()) {
			counts.merge(interval.getTag(), ((org.HdrHistogram.Histogram) interval).getTotalCount(), Long::sum);
		}
		reader.close();
		// The request outside a mix (-1) is in latency.hlog only.
		assertThat(counts).containsEntry("ok-0", 1L).containsEntry("ok-1", 1L).containsEntry("ko-1", 1L).containsEntry("ko-0", 0L);
	}

}
