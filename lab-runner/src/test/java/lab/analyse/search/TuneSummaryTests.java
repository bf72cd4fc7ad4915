package lab.analyse.search;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import lab.json.Json;
import lab.layout.LatencyTarget;
import lab.layout.RunDir;
import lab.layout.TuneAnswer;
import lab.plan.Axes;
import lab.plan.OwnService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** The tune answer's front and axis effects, from synthetic arms; a study of groups read back from its files. */
class TuneSummaryTests {

	@TempDir
	Path results;

	private static Interval capacity(double estimate, double low, double high) {
		return new Interval(estimate, low, high, 5, 2, 4, Interval.JvmLevel.POOLED);
	}

	private static TuneSummary.Arm arm(String label, String vt, String pool, Interval capacity, double rss) {
		return new TuneSummary.Arm(label, Map.of("vt", vt, "pool", pool), capacity, 2, TuneSummary.Standing.BEATEN, "", rss, Double.parseDouble(pool), false, false);
	}

	@Test
	void theFrontHoldsTheArmsNoOtherBeatsOnCapacityAndCost() {
		List<TuneSummary.Arm> arms = TuneSummary.front(List.of(
				arm("true-20", "true", "20", capacity(171, 154, 190), 210),
				arm("false-20", "false", "20", capacity(110, 99, 122), 260),
				arm("true-5", "true", "5", capacity(43, 32, 59), 190),
				arm("false-5", "false", "5", capacity(32, 25, 42), 200)));
		// RSS: true-20 serves most; true-5 serves more than false-5 within 10% of its RSS; false-20 is beaten by true-20
		// (less than 10% more RSS, more users); true-5 stays (true-20's 210 is 11% over its 190).
		assertThat(arms).filteredOn(TuneSummary.Arm::frontRss).extracting(TuneSummary.Arm::label).containsExactly("true-20", "true-5");
		// Connections: pool 5 with virtual threads serves more than pool 5 without; pool 20 serves the most.
		assertThat(arms).filteredOn(TuneSummary.Arm::frontConnections).extracting(TuneSummary.Arm::label).containsExactly("true-20", "true-5");
		// An arm without a capacity is on no front.
		assertThat(TuneSummary.onFront(arm("x", "true", "5", Interval.NONE, 100), arms, TuneSummary.Arm::rssMiB, 0.1)).isFalse();
	}

	@Test
	void eachAxisIsReadWithTheOthersAtTheBestArmsValues() {
		List<TuneSummary.Arm> arms = List.of(
				arm("true-20", "true", "20", capacity(171, 154, 190), 210),
				arm("false-20", "false", "20", capacity(110, 99, 122), 260),
				arm("true-5", "true", "5", capacity(43, 32, 59), 190),
				arm("true-50", "true", "50", capacity(180, 160, 200), 230));
		List<TuneSummary.Effect> effects = TuneSummary.effects(arms, List.of("vt", "pool"), "true-20");
		assertThat(effects).extracting(TuneSummary.Effect::axis).containsExactly("vt", "pool");
		TuneSummary.Effect vt = effects.get(0);
		assertThat(vt.points()).extracting(TuneSummary.Point::label).containsExactly("true-20", "false-20");
		assertThat(vt.points().get(1).ratio()).isCloseTo(110 / 171.0, org.assertj.core.api.Assertions.within(1e-9));
		assertThat(vt.points().get(1).overlaps()).as("99-122 lies wholly below 154-190").isFalse();
		TuneSummary.Effect pool = effects.get(1);
		assertThat(pool.points()).extracting(TuneSummary.Point::value).containsExactly("20", "5", "50");
		assertThat(pool.points().get(2).overlaps()).as("160-200 overlaps 154-190: within noise").isTrue();
		// false with pool 5 or 50 was not studied: the vt axis has no such point, and the pool axis reads at vt=true only.
		assertThat(TuneSummary.effects(arms, List.of("vt", "pool"), "false-20").get(1).points())
			.extracting(TuneSummary.Point::label).containsExactly("false-20", null, null);
	}

	@Test
	void aStudyOfGroupsIsReadBackWithEachGroupsBestItsBeatenAndItsConfirmation() throws Exception {
		OwnService.ServiceArm loom = new OwnService.ServiceArm("loom", null, Map.of(), List.of(), null);
		OwnService.ServiceArm r2dbc = new OwnService.ServiceArm("r2dbc", null, Map.of(), List.of(), null);
		OwnService service = new OwnService("set", Path.of("set.jar"), null, null, null, List.of(), Map.of(), List.of(), List.of(loom, r2dbc), null, null,
				null, new Axes(Map.of("lab.db.pool-size", List.of(10, 50)), List.of(), null, null));
		assertThat(service.labels()).containsExactly("set-loom-10", "set-loom-50", "set-r2dbc-10", "set-r2dbc-50");
		Files.writeString(this.results.resolve(RunDir.MANIFEST), "{\"ownService\": {\"file\": " + Json.MAPPER.writeValueAsString(service) + "}}");
		TuneAnswer.Bounds low = new TuneAnswer.Bounds(200, 180, 220, 4, 1, 2, "PRIOR");
		TuneAnswer.Bounds high = new TuneAnswer.Bounds(400, 360, 440, 4, 1, 2, "PRIOR");
		TuneAnswer.Bounds again = new TuneAnswer.Bounds(390, 340, 450, 3, 1, 2, "PRIOR");
		Map<String, TuneAnswer.Bounds> beaten = new LinkedHashMap<>();
		beaten.put("set-loom-10", low);
		TuneAnswer tune = new TuneAnswer(LatencyTarget.DEFAULT, null, TuneAnswer.Bounds.NONE, List.of(), beaten, false, Map.of(),
				List.of(new TuneAnswer.Step(1, service.labels(), List.of("set-loom-10"), List.of(service.labels()))),
				List.of(new TuneAnswer.Group("loom", "set-loom-50", high, List.of(), beaten, Map.of(), new TuneAnswer.Confirmation(again, true)),
						new TuneAnswer.Group("r2dbc", "set-r2dbc-10", high, List.of("set-r2dbc-50"), Map.of(), Map.of(), null)),
				null);
		Json.MAPPER.writeValue(this.results.resolve(RunDir.TUNE).toFile(), tune);
		TuneSummary summary = TuneSummary.read(this.results, Json.MAPPER.readTree(this.results.resolve(RunDir.MANIFEST).toFile()), List.of(), List.of())
			.orElseThrow();
		assertThat(summary.named()).as("a best for every group").isTrue();
		assertThat(summary.unnamedGroups()).isEmpty();
		assertThat(summary.groupBests()).containsExactly(Map.entry("loom", "set-loom-50"), Map.entry("r2dbc", "set-r2dbc-10"));
		assertThat(summary.arms()).extracting(TuneSummary.Arm::standing).containsExactly(TuneSummary.Standing.BEATEN, TuneSummary.Standing.BEST,
				TuneSummary.Standing.BEST, TuneSummary.Standing.WITHIN_NOISE);
		assertThat(summary.arms()).extracting(TuneSummary.Arm::group).containsExactly("loom", "loom", "r2dbc", "r2dbc");
		assertThat(summary.arms().get(1).capacity().estimate()).isEqualTo(400);
		assertThat(summary.confirmations()).containsOnlyKeys("set-loom-50");
		assertThat(summary.confirmations().get("set-loom-50").confirmed()).isTrue();
		assertThat(summary.confirmations().get("set-loom-50").capacity().estimate()).isEqualTo(390);
	}

}
