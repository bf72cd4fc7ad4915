package lab.analyse.measure;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import lab.analyse.read.Latency;
import lab.layout.LevelDir;
import lab.layout.RequestMix;
import lab.layout.RunDir;
import lab.load.LoadWindow;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Each named request's figures from the injector's per-request histograms, in the window, judged by its own target. */
class RequestFiguresTests {

	@TempDir
	Path dir;

	@Test
	void eachRequestHasItsOwnCountPercentilesErrorsAndTarget() throws Exception {
		RequestMix.write(List.of(new RequestMix.Request("page", "GET", "/owners/1", Map.of(), null, 3, 200, "p99<=300ms,errors<=1%"),
				new RequestMix.Request("search", "GET", "/owners?q=a", Map.of(), null, 1, 200, "p99<=50ms,errors<=1%"),
				new RequestMix.Request("list", "GET", "/vets.json", Map.of(), null, 1, 200)), this.dir.resolve(RunDir.REQUEST_MIX));
		Path hlog = this.dir.resolve(LevelDir.LATENCY_BY_REQUEST);
		long start = 1_000_000L;
		try (PrintStream out = new PrintStream(Files.newOutputStream(hlog))) {
			HistogramLogWriter log = new HistogramLogWriter(out);
			log.outputLogFormatVersion();
			log.outputBaseTime(0);
			log.outputLegend();
			for (int second = 0; second < 10; second++) {
				// page: 100 a second at 10..109 ms; search: 10 a second at 200 ms, one failing a second; list: none in the window.
				Histogram pageOk = new Histogram(3);
				for (int i = 0; i < 100; i++) {
					pageOk.recordValue((10 + i) * 1000L);
				}
				Histogram searchOk = new Histogram(3);
				searchOk.recordValueWithCount(200_000, 9);
				Histogram searchKo = new Histogram(3);
				searchKo.recordValue(3_000_000);
				write(log, pageOk, "ok-0", start + second * 1000L);
				write(log, searchOk, "ok-1", start + second * 1000L);
				write(log, searchKo, "ko-1", start + second * 1000L);
			}
			// Outside the window: the ramp's second, not counted.
			Histogram ramp = new Histogram(3);
			ramp.recordValue(5_000_000);
			write(log, ramp, "ok-0", start - 5_000);
			log.close();
		}
		Map<Integer, Latency> byRequest = Latency.byRequest(hlog, new LoadWindow(start - 10_000, start, start + 10_000));
		List<RequestFigures> figures = RequestFigures.of(byRequest, this.dir);

		assertThat(figures).extracting(RequestFigures::name).containsExactly("page", "search", "list");
		RequestFigures page = figures.get(0);
		assertThat(page.requests()).isEqualTo(1_000);
		assertThat(page.errors()).isZero();
		assertThat(page.p50Ms()).isCloseTo(59.0, within(0.1));
		assertThat(page.p99Ms()).isCloseTo(108.0, within(0.2));
		assertThat(page.meetsTarget()).as("p99 108 <= 300 ms").isTrue();
		RequestFigures search = figures.get(1);
		assertThat(search.requests()).isEqualTo(100);
		assertThat(search.errors()).isEqualTo(10);
		assertThat(search.errorPercent()).isCloseTo(10.0, within(1e-9));
		assertThat(search.p99Ms()).as("the failures at the time they took").isGreaterThan(2_990);
		assertThat(search.meetsTarget()).isFalse();
		RequestFigures list = figures.get(2);
		assertThat(list.requests()).isZero();
		assertThat(list.target()).isNull();
		assertThat(list.meetsTarget()).as("no target of its own").isNull();
		// Two repeats: each figure's median, judged again.
		List<RequestFigures> twice = RequestFigures.median(List.of(figures, figures));
		assertThat(twice.get(0).p99Ms()).isEqualTo(page.p99Ms());
		assertThat(twice.get(1).meetsTarget()).isFalse();
		// A level without the file (the lab's own variants): no rows.
		assertThat(RequestFigures.of(Latency.byRequest(this.dir.resolve("none.hlog"), null), this.dir)).isEmpty();
	}

	private static void write(HistogramLogWriter log, Histogram histogram, String tag, long startMs) {
		histogram.setTag(tag);
		histogram.setStartTimeStamp(startMs);
		histogram.setEndTimeStamp(startMs + 1000);
		log.outputIntervalHistogram(histogram);
	}

}
