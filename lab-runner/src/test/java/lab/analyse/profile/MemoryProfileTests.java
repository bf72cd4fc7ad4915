package lab.analyse.profile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import lab.analyse.TestRows;
import lab.analyse.evidence.ClassHistogram;
import lab.analyse.judge.Figures;
import lab.analyse.judge.LevelResult;
import lab.analyse.judge.LevelResult.Verdict;
import lab.analyse.measure.Metric;
import lab.analyse.read.LevelFacts;
import lab.layout.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Memory per request in flight on hand-made histograms and snapshots; every expected number is worked out in the comments. */
class MemoryProfileTests {

	private static final double MIB = 1024 * 1024;

	@TempDir
	Path results;

	@Test
	void readsAClassHistogramAsJcmdWritesIt() throws IOException {
		Path file = histogram(this.results, "h.txt", 1_000_000, new Object[][] { { "[B (java.base@25.0.3)", 100, 800_000L },
				{ "[Ljava.lang.Object; (java.base@25.0.3)", 10, 100_000L }, { "org.apache.tomcat.util.buf.ByteChunk", 20, 100_000L } });
		ClassHistogram histogram = ClassHistogram.read(file);
		assertThat(histogram.totalBytes()).isEqualTo(1_000_000);
		assertThat(histogram.classes()).containsOnlyKeys("byte[]", "java.lang.Object[]", "org.apache.tomcat.util.buf.ByteChunk");
		assertThat(histogram.classes().get("byte[]")).containsExactly(100, 800_000);
	}

	@Test
	void liveHeapLeavesOutTheJvmsHeapFillers() throws IOException {
		// Total 1,000,000 B of which 200,000 B are filler arrays (dead space a full GC left in place): 800,000 B live.
		Path file = histogram(this.results, "h.txt", 1_000_000, new Object[][] { { "[B (java.base@25.0.3)", 100, 700_000L },
				{ "[Ljdk.internal.vm.FillerElement; (java.base@25.0.3)", 3, 200_000L }, { "java.lang.String", 20, 100_000L } });
		assertThat(lab.sample.HeapSnapshot.liveBytes(file)).isEqualTo(800_000);
	}

	@Test
	void perRequestIsTheDifferenceOverTheIdleHistogramDividedByRequestsInFlight() throws IOException {
		// Idle: byte[] 1,000,000 B in 100 arrays, String 50,000 B. Loaded with 1,000 in flight: byte[] 33,768,000 B in
		// 4,100 arrays, String 40,000 B (it shrank: left out), StackChunk 5,120,000 B in 1,000.
		// byte[]: (33,768,000 - 1,000,000) / 1,000 = 32,768 B = 32 KB and (4,100 - 100) / 1,000 = 4 arrays per request.
		// StackChunk: 5,120 B = 5 KB, 1 per request.
		ClassHistogram idle = ClassHistogram.read(histogram(this.results, "idle.txt", 1_050_000,
				new Object[][] { { "[B (java.base@25.0.3)", 100, 1_000_000L }, { "java.lang.String (java.base@25.0.3)", 2_000, 50_000L } }));
		ClassHistogram loaded = ClassHistogram.read(histogram(this.results, "loaded.txt", 38_928_000,
				new Object[][] { { "[B (java.base@25.0.3)", 4_100, 33_768_000L }, { "jdk.internal.vm.StackChunk (java.base@25.0.3)", 1_000, 5_120_000L },
						{ "java.lang.String (java.base@25.0.3)", 1_600, 40_000L } }));
		List<ClassHistogram.Share> shares = loaded.perRequestOver(idle, 1_000, 8);
		assertThat(shares).extracting(ClassHistogram.Share::className).containsExactly("byte[]", "jdk.internal.vm.StackChunk");
		assertThat(shares.get(0).bytesPerRequest()).isEqualTo(32_768);
		assertThat(shares.get(0).instancesPerRequest()).isEqualTo(4);
		assertThat(shares.get(1).bytesPerRequest()).isEqualTo(5_120);
	}

	@Test
	void fitsALineByLeastSquares() {
		// (0, 100), (1,000, 140), (2,000, 180) MiB lie on y = 100 + 0.04 x: 0.04 MiB = 40.96 KB per request, R² 1.
		MemoryProfile.Fit line = MemoryProfile.Fit.of(List.of(new double[] { 0, 100 }, new double[] { 1000, 140 }, new double[] { 2000, 180 }));
		assertThat(line.baseMiB()).isCloseTo(100, within(1e-9));
		assertThat(line.kbPerRequest()).isCloseTo(40.96, within(1e-9));
		assertThat(line.r2()).isCloseTo(1, within(1e-12));
		// (0, 0), (1, 1), (2, 1): mean x 1, mean y 2/3; Sxx 2, Sxy 1, Syy 2/3: slope 0.5, base 1/6, R² 1 / (2 × 2/3) = 0.75.
		MemoryProfile.Fit bent = MemoryProfile.Fit.of(List.of(new double[] { 0, 0 }, new double[] { 1, 1 }, new double[] { 2, 1 }));
		assertThat(bent.baseMiB()).isCloseTo(1.0 / 6, within(1e-12));
		assertThat(bent.kbPerRequest()).isCloseTo(512, within(1e-9));
		assertThat(bent.r2()).isCloseTo(0.75, within(1e-12));
		// One load only: no line.
		assertThat(MemoryProfile.Fit.of(List.of(new double[] { 5, 1 }, new double[] { 5, 2 })).kbPerRequest()).isNaN();
	}

	@Test
	void predictsFromTheWarmUpAloneAndSaysWhetherTheLevelsBoreItOut() throws IOException {
		// Idle: 0 in flight, 60 MiB live. Loaded (warm-up): 1,000 in flight, 100 MiB live: 40 MiB per 1,000 = 41.0 KB each.
		// Max heap 256 MiB: (256 - 60) / 0.04 = 4,900 in flight. Levels: 2,000 (140 MiB) OK, 4,000 (220 MiB) OK,
		// 6,000 FAILED with OutOfMemoryError: out of memory between 4,000 and 6,000, as predicted.
		warmUp();
		level("users-2000", 2_000, "app-tomcat-loom/warmup", 140, 330);
		level("users-4000", 4_000, null, 220, 490);
		level("users-6000", 6_000, null, Double.NaN, Double.NaN);
		List<LevelResult> levels = List.of(result(2_000, Verdict.OK, List.of()), result(4_000, Verdict.OK, List.of()),
				result(6_000, Verdict.FAILED, List.of("OutOfMemoryError in the service log")));
		List<MemoryProfile> profiles = MemoryProfile.analyse(this.results, levels);
		assertThat(profiles).hasSize(1);
		MemoryProfile profile = profiles.get(0);
		assertThat(profile.predictedBreak()).isCloseTo(4_900, within(1e-6));
		assertThat(profile.heapMaxMiB()).isEqualTo(256);
		// Points (0, 60), (1,000, 100), (2,000, 140), (4,000, 220): all on 60 + 0.04 x.
		assertThat(profile.heap().baseMiB()).isCloseTo(60, within(1e-9));
		assertThat(profile.heap().kbPerRequest()).isCloseTo(40.96, within(1e-9));
		assertThat(profile.heap().points()).isEqualTo(4);
		// RSS (0, 150), (1,000, 250), (2,000, 330), (4,000, 490): mean x 1,750, mean y 305; Sxx = 1,750² + 750² + 250²
		// + 2,250² = 8,750,000, Sxy = 1,750 × 155 + 750 × 55 + 250 × 25 + 2,250 × 185 = 735,000: slope 0.084 MiB =
		// 86.016 KB per request, base 305 - 0.084 × 1,750 = 158 MiB.
		assertThat(profile.rss().kbPerRequest()).isCloseTo(86.016, within(1e-9));
		assertThat(profile.rss().baseMiB()).isCloseTo(158, within(1e-9));
		assertThat(profile.observedBreak()).isEqualTo("6000 (out of memory)");
		assertThat(profile.bornOut()).isEqualTo("yes: out of memory between 4000 and 6000");
		assertThat(profile.highestHeld()).isEqualTo(4_000);
	}

	@Test
	void aPredictionThatTheLevelsContradictIsSaidToBeWrong() throws IOException {
		warmUp();
		level("users-6000", 6_000, "app-tomcat-loom/warmup", 200, 400);
		MemoryProfile profile = profile(ok(6_000));
		assertThat(profile.bornOut()).isEqualTo("no: 6,000 users (6,000 in flight) held without running out of heap");
	}

	@Test
	void aFailedLevelWhoseHeapWasFullIsOutOfMemoryInAllButName() throws IOException {
		// No OutOfMemoryError was logged, but 240 of 256 MiB (94%) were live after a full GC at 6,000: GC-bound.
		warmUp();
		level("users-4000", 4_000, "app-tomcat-loom/warmup", 220, 490);
		level("users-6000", 6_000, null, 240, 500);
		MemoryProfile profile = profile(ok(4_000), result(6_000, Verdict.FAILED, List.of("errors 100.0% > 5%")));
		assertThat(profile.observedBreak()).isEqualTo("6000 (heap full: 240 of 256 MiB live after a full GC)");
		assertThat(profile.bornOut()).isEqualTo("yes: out of memory between 4000 and 6000");
	}

	@Test
	void requestsBeingServedAreTheAnswersPerSecondBeforeTheSnapshotTimesTheDelay() throws IOException {
		// Snapshot at 100,400 ms, delay 500 ms: the span is max(5 s, 2 × 0.5 s) = 5 s, the seconds 95,000 to 99,000
		// (the second it fell in, 100,000, is left out). Rows are stamped 94,500, 95,500, ... 101,500; those of the
		// seconds 95,000 to 99,000 answer 2,000, 2,000, 2,200, 1,800, 2,000: 10,000 / 5 = 2,000 a second, × 0.5 s = 1,000.
		Path dir = Files.createDirectories(this.results.resolve("level"));
		completions(dir, 94_500, 1_000, 2_000, 2_000, 2_200, 1_800, 2_000, 1_000, 1_000);
		assertThat(MemoryProfile.beingServed(dir, 100_400, 500)).isCloseTo(1_000, within(1e-9));
		// Two injectors: their seconds are summed (each answered half).
		Path split = Files.createDirectories(this.results.resolve("split"));
		completions(Files.createDirectories(split.resolve("injector-1")), 94_500, 500, 1_000, 1_000, 1_100, 900, 1_000, 500, 500);
		completions(Files.createDirectories(split.resolve("injector-2")), 94_700, 500, 1_000, 1_000, 1_100, 900, 1_000, 500, 500);
		assertThat(MemoryProfile.beingServed(split, 100_400, 500)).isCloseTo(1_000, within(1e-9));
		// No delay (nothing to multiply by), or a single second written: unknown.
		assertThat(MemoryProfile.beingServed(dir, 100_400, 0)).isNaN();
		assertThat(MemoryProfile.beingServed(dir, 95_400, 500)).isNaN();
	}

	@Test
	void theLineLeavesOutLevelsWhereMostRequestsInFlightWaitedToBeServed() throws IOException {
		// At rest 1 in flight (the runner's own scrape on Tomcat: served), 60 MiB. The warm-up's end, 1,000 in flight
		// and 100 MiB, answered 2,000 a second at 500 ms: 1,000 being served, all of them. 2,000 users (140 MiB)
		// answered 4,000 a second: 2,000 being served, all. 6,000 users held only 180 MiB: they answered 4,200 a
		// second, 2,100 being served, 35% of 6,000: left out.
		// The line through (1, 60), (1,000, 100), (2,000, 140): mean x 1,000.33, mean y 100; Sxx = 999.33² + 0.33² +
		// 999.67² = 998,667.1 + 0.1 + 999,333.4 = 1,998,000.7, Sxy = 999.33 × 40 + 0.33 × 0 + 999.67 × 40 = 79,960:
		// slope 0.040020 MiB = 40.980 KB per request, 3 points. Through all four it would be flatter (the 6,000 point
		// lies near 60 + 0.02 x).
		warmUpAnswering(2_000);
		levelAnswering("users-2000", 2_000, "app-tomcat-loom/warmup", 140, 330, 4_000);
		levelAnswering("users-6000", 6_000, null, 180, 400, 4_200);
		MemoryProfile profile = profile(ok(2_000), ok(6_000));
		assertThat(profile.points()).extracting(MemoryProfile.Point::served).containsExactly(1.0, 1_000.0, 2_000.0, 2_100.0);
		assertThat(profile.heap().kbPerRequest()).isCloseTo(40.980, within(1e-3));
		assertThat(profile.heap().points()).isEqualTo(3);
		// RSS follows the heap the JVM committed, not the requests of the moment: its line goes through every point.
		assertThat(profile.rss().points()).isEqualTo(4);
		assertThat(profile.fitOver()).isEqualTo("line through the points where at least 90% of the requests in flight were being served; "
				+ "left out: app-tomcat-loom/users-6000 (35% being served)");
		// The top classes come from the highest level that was being served, not from the saturated one.
		assertThat(profile.topClassesAt()).isEqualTo("app-tomcat-loom/users-2000");
	}

	@Test
	void whenEveryLoadWasSaturatedTheLineGoesThroughEveryPointAndSaysSo() throws IOException {
		// 200 threads at 500 ms answer 400 a second whatever the load: 200 being served of 1,000 (the warm-up's end
		// and the first level) and of 2,000. Only the point at rest is left: no line through it alone.
		warmUpAnswering(400);
		levelAnswering("users-1000", 1_000, "app-tomcat-loom/warmup", 100, 250, 400);
		levelAnswering("users-2000", 2_000, null, 140, 330, 400);
		MemoryProfile profile = profile(ok(1_000), ok(2_000));
		assertThat(profile.heap().points()).isEqualTo(4);
		assertThat(profile.fitOver()).startsWith("line through every point: fewer than two loads had 90% of their requests in flight being served");
	}

	@Test
	void snapshotsOfOneLoadOnlyDrawNoLineAndSaySo() throws IOException {
		// A run stopped after its warm-up, whose end held no request either: two points at 0 in flight.
		Path warmup = Files.createDirectories(this.results.resolve("app-tomcat-loom/warmup"));
		snapshot(warmup, "heap-idle", 0, 60, 256, 150);
		snapshot(warmup, "heap-loaded", 0, 61, 256, 160);
		level("users-1000", 1_000, "app-tomcat-loom/warmup", Double.NaN, Double.NaN);
		MemoryProfile profile = profile(result(1_000, Verdict.INTERRUPTED, List.of()));
		assertThat(profile.heap().kbPerRequest()).isNaN();
		assertThat(profile.fitOver()).isEqualTo("no line: the snapshots held fewer than two different numbers of requests in flight");
	}

	/**
	 * At rest 1 in flight and 60 MiB; the warm-up's end at 100,400 ms with 1,000 in flight and 100 MiB, after seconds
	 * that answered {@code perSecond} each; max heap 256 MiB.
	 */
	private void warmUpAnswering(long perSecond) throws IOException {
		Path warmup = Files.createDirectories(this.results.resolve("app-tomcat-loom/warmup"));
		snapshot(warmup, "heap-idle", 1, 60, 256, 150);
		snapshot(warmup, "heap-loaded", 100_400, 1_000, 100, 256, 250);
		completions(warmup, 94_500, perSecond, perSecond, perSecond, perSecond, perSecond, perSecond, perSecond);
	}

	/** A level as {@link #level}, snapshot at 100,400 ms after seconds that answered {@code perSecond} each. */
	private void levelAnswering(String id, int users, String warmupDir, double liveMiB, double rssMiB, long perSecond) throws IOException {
		level(id, users, warmupDir, liveMiB, rssMiB);
		completions(this.results.resolve("app-tomcat-loom").resolve(id), 94_500, perSecond, perSecond, perSecond, perSecond, perSecond, perSecond,
				perSecond);
	}

	/** {@code completions.csv} with a row a second from {@code firstStampMs}, answering the counts given. */
	private static void completions(Path dir, long firstStampMs, long... answered) throws IOException {
		StringBuilder text = new StringBuilder("epoch_ms,answered,unanswered\n");
		for (int i = 0; i < answered.length; i++) {
			text.append(firstStampMs + 1_000L * i).append(',').append(answered[i]).append(",0\n");
		}
		Files.writeString(dir.resolve("completions.csv"), text);
	}

	/** At rest: 0 in flight, 60 MiB live; the warm-up's end: 1,000 in flight, 100 MiB; max heap 256 MiB. */
	private void warmUp() throws IOException {
		Path warmup = Files.createDirectories(this.results.resolve("app-tomcat-loom/warmup"));
		snapshot(warmup, "heap-idle", 0, 60, 256, 150);
		snapshot(warmup, "heap-loaded", 1_000, 100, 256, 250);
	}

	private void level(String id, int users, String warmupDir, double liveMiB, double rssMiB) throws IOException {
		Path dir = Files.createDirectories(this.results.resolve("app-tomcat-loom").resolve(id));
		LevelFacts.write(dir, new LevelFacts("app-tomcat-loom", new Level.Closed(users), null, 500, 1, true, 1, 1,
				true, null, false, 0, List.of(), List.of(), null, 30_000L, true, true, null, null, warmupDir, null));
		if (Double.isFinite(liveMiB)) {
			snapshot(dir, "heap-steady", 100_400, users, liveMiB, 256, rssMiB);
		}
	}

	private static void snapshot(Path dir, String name, double inFlight, double liveMiB, double maxMiB, double rssMiB) throws IOException {
		snapshot(dir, name, 1, inFlight, liveMiB, maxMiB, rssMiB);
	}

	private static void snapshot(Path dir, String name, long epochMs, double inFlight, double liveMiB, double maxMiB, double rssMiB) throws IOException {
		histogram(dir, name + ".txt", (long) (liveMiB * MIB), new Object[][] { { "[B (java.base@25.0.3)", 1, (long) (liveMiB * MIB) } });
		Files.writeString(dir.resolve(name + ".json"), String.format(java.util.Locale.ROOT,
				"{\"epochMs\":%d,\"inFlight\":%s,\"liveBytes\":%s,\"heapMaxBytes\":%s,\"rssBytes\":%s,\"histogram\":\"%s.txt\"}", epochMs,
				inFlight, liveMiB * MIB, maxMiB * MIB, rssMiB * MIB, name));
	}

	private static Path histogram(Path dir, String name, long total, Object[][] rows) throws IOException {
		StringBuilder text = new StringBuilder("12345:\n num     #instances         #bytes  class name (module)\n-------------------------------------------------------\n");
		long instances = 0;
		for (int i = 0; i < rows.length; i++) {
			text.append(String.format("%4d: %13d %14d  %s%n", i + 1, ((Number) rows[i][1]).longValue(), (long) rows[i][2], rows[i][0]));
			instances += ((Number) rows[i][1]).longValue();
		}
		text.append(String.format("Total %13d %14d%n", instances, total));
		return Files.writeString(dir.resolve(name), text);
	}

	/** The one variant's profile of the snapshots written, judged by {@code levels}. */
	private MemoryProfile profile(LevelResult... levels) throws IOException {
		return MemoryProfile.analyse(this.results, List.of(levels)).get(0);
	}

	private static LevelResult ok(int users) {
		return result(users, Verdict.OK, List.of());
	}

	private static LevelResult result(int users, Verdict verdict, List<String> reasons) {
		return TestRows.row("app-tomcat-loom", new Level.Closed(users)).set(Figures.RPS, 1000, Figures.RPS_MIN, 1000, Figures.RPS_MAX, 1000,
				Figures.CEILING_RPS, 2000, Figures.EFFICIENCY, 0.5, Figures.REQUESTS, 100, Figures.ERROR_PERCENT, 0.0, Figures.SERVICE_CPU_PERCENT, 50,
				Metric.GC_PERCENT, 1, Metric.PEAK_HEAP_MIB, 100, Metric.PEAK_RSS_MIB, 200).verdict(verdict).reasons(reasons).build();
	}

}
