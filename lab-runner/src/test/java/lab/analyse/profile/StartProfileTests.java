package lab.analyse.profile;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;

import lab.analyse.LevelJsonTests;
import lab.analyse.read.LevelFacts;
import lab.analyse.read.Samples;
import lab.analyse.read.TimeSeries;
import lab.json.Json;
import lab.load.LoadWindow;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** A cold start's figures, timed from the process start, on hand-made seconds. */
class StartProfileTests {

	static final long STARTED = 1_000_000_000L;

	@TempDir
	Path dir;

	/**
	 * Ready at 4.2 s; the load's answers (stamped at the end of their second) from second 5: 20, 100, 300, 500, then
	 * 600 a second to second 94.
	 */
	static TreeMap<Long, Long> answered() {
		TreeMap<Long, Long> answered = new TreeMap<>();
		long[] ramp = { 20, 100, 300, 500 };
		for (int second = 5; second < 95; second++) {
			long count = (second - 5 < ramp.length) ? ramp[second - 5] : 600;
			// A row stamped 215 ms into second s + 1 counts second s.
			answered.put(STARTED + (second + 1) * 1000L + 215, count);
		}
		return answered;
	}

	static Histogram histogram(long... micros) {
		Histogram histogram = new Histogram(3_600_000_000L, 3);
		for (long value : micros) {
			histogram.recordValue(value);
		}
		return histogram;
	}

	@Test
	void timesAStartFromItsProcessStart() {
		TimeSeries jit = new TimeSeries(List.of(new TimeSeries.Sample(STARTED + 5_000, 2.5), new TimeSeries.Sample(STARTED + 10_000, 4.0),
				new TimeSeries.Sample(STARTED + 30_000, 6.0), new TimeSeries.Sample(STARTED + 60_000, 6.5)));
		LoadWindow window = new LoadWindow(STARTED + 4_500, STARTED + 4_500, STARTED + 95_000);
		StartProfile start = StartProfile.of("app-webflux", this.dir, STARTED, STARTED + 4_200, answered(), window,
				List.of(histogram(900_000, 2_000_000), histogram(600_000), histogram(500_000)), jit);
		assertThat(start.readySeconds()).isEqualTo(4.2);
		assertThat(start.loadSeconds()).isEqualTo(4.5);
		// The first answers came in second 5: by the end of it, 6 s after the start.
		assertThat(start.firstAnswerSeconds()).isEqualTo(6.0);
		assertThat(start.steadyRps()).isEqualTo(600);
		// Three seconds averaging 300 (half of 600): seconds 6-8 (100, 300, 500); 540 (90%): 8-10 (500, 600, 600).
		assertThat(start.to50Seconds()).isEqualTo(7.0);
		assertThat(start.to90Seconds()).isEqualTo(9.0);
		// By 10 s: seconds 5-9 = 20 + 100 + 300 + 500 + 600.
		assertThat(start.answered()).containsExactly(1_520L, 1_520L + 20 * 600, 1_520L + 50 * 600);
		assertThat(start.p99Ms().get(0)).isCloseTo(2_000, org.assertj.core.data.Offset.offset(5.0));
		assertThat(start.jitCpuSeconds()).containsExactly(4.0, 6.0, 6.5);
		// The JIT's first sample is its mean since the start: 2.5 s of CPU in 5 s, 50% of a core; then 1.5 s in 5 s.
		assertThat(start.seconds().get(0).jitPercent()).isEqualTo(50.0);
		assertThat(start.seconds().get(7).jitPercent()).isEqualTo(30.0);
		assertThat(start.seconds().get(7).answered()).isEqualTo(300);
	}

	@Test
	void aLevelThatWasNotAColdStartHasNoStartProfile() throws Exception {
		Path level = Files.createDirectories(this.dir.resolve("app-webflux/users-300"));
		Files.writeString(level.getParent().resolve("started-at"), STARTED + "\n");
		LevelFacts warm = LevelJsonTests.facts(new lab.layout.Level.Closed(300), null);
		assertThat(StartProfile.read(level, warm, new Samples())).isEmpty();
	}

	@Test
	void theCacheAServiceStartedWithIsNamedWithHowItWasMade() throws Exception {
		Path stamp = this.dir.resolve("aot-cache.json");
		Json.MAPPER.writeValue(stamp.toFile(), java.util.Map.of("mode", "trained", "training", "under the lab's load: 300 users for 60 s, then exited",
				"sizeBytes", 64 << 20, "trainedInSeconds", 95.5, "reused", true, "createdAt", "2026-11-26T08:00:00Z", "path", "/c/app.aot"));
		assertThat(StartProfile.aotCache(stamp)).isEqualTo("trained (under the lab's load: 300 users for 60 s, then exited); 64.0 MiB; "
				+ "training took 95.5 s; made by an earlier run (2026-11-26T08:00:00Z); /c/app.aot");
		assertThat(StartProfile.aotCache(this.dir.resolve("none.json"))).isNull();
	}

}
