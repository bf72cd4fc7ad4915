package lab.analyse.search;

import java.util.List;

import lab.analyse.LevelResult.Verdict;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The crossing and the interval by hand. */
class CrossingTests {

	private static RoundProbe probe(int load, double p99) {
		return new RoundProbe(1, 1, "v", load, Verdict.OK, p99 <= 1000, p99, "", "v/" + load);
	}

	@Test
	void betweenAMetAndAMissedProbeTheCrossingIsInterpolatedInLogLatency() {
		// ln(1000/800) / ln(1250/800) = 0.2231 / 0.4463 = 0.5: halfway between 2,000 and 2,200 in log load, 2,000·1.1^0.5 = 2,097.6.
		assertThat(Crossing.between(probe(2_000, 800), probe(2_200, 1_250), 1000)).isCloseTo(2_097.6, within(0.1));
		// A break above has no latency: the middle.
		RoundProbe failed = new RoundProbe(1, 1, "v", 2_400, Verdict.FAILED, false, null, "OutOfMemoryError", "v/2400");
		assertThat(Crossing.between(probe(2_000, 800), failed, 1000)).isEqualTo(2_200);
	}

	@Test
	void aProbeNearTheKneePlacesTheCrossingWithItsNeighboursSlope() {
		// p99 = 1000 · (load / 2,000)^2: elasticity 2; a probe at 1,900 has p99 1000·0.95² = 902.5, and 1,900·(1000/902.5)^(1/2) = 2,000.
		List<RoundProbe> probes = List.of(probe(1_800, 1000 * 0.9 * 0.9), probe(2_100, 1000 * 1.05 * 1.05), probe(1_900, 1000 * 0.95 * 0.95));
		double slope = Crossing.slope(probes, 1000, 500);
		assertThat(slope).isCloseTo(2, within(1e-9));
		assertThat(Crossing.at(probes.get(2), slope, 1000, 500)).isCloseTo(2_000, within(1e-6));
		// On the floor (within 15% of the downstream's 500 ms) a probe does not shape the slope.
		assertThat(Crossing.slope(List.of(probe(1_000, 540), probe(1_900, 902.5)), 1000, 500)).isNaN();
		// Never extrapolated past twice the probe's load: 1,000·(1000/700)^(1/0.5) = 2,041 → 2,000.
		assertThat(Crossing.at(probe(1_000, 700), 0.5, 1000, 500)).isEqualTo(2_000);
		// A probe farther than twice from the target, or near the floor (within 1.3 times the downstream's 500 ms), places
		// none: the slope, not the probe, would decide it.
		assertThat(Crossing.at(probe(1_000, 640), 1, 1000, 500)).isNaN();
		assertThat(Crossing.at(probe(3_000, 2_100), 1, 1000, 500)).isNaN();
		assertThat(Crossing.at(probe(3_000, 1_600), 1, 1000, 500)).isCloseTo(1_875, within(1e-6));
		// A fitted slope is kept within 0.5 and 4: p99 = 1000·(load/2,000)^8 fits 8, kept at 4.
		assertThat(Crossing.slope(List.of(probe(1_900, 1000 * Math.pow(0.95, 8)), probe(2_000, 1000), probe(2_100, 1000 * Math.pow(1.05, 8))), 1000, 500))
			.isEqualTo(4);
	}

	@Test
	void theIntervalIsAStudentTIntervalOfTheMeanLog() {
		Interval one = Interval.ofGeometricMean(new double[] { 0.5 });
		assertThat(one.n()).isEqualTo(1);
		assertThat(one.hasSpread()).isFalse();
		assertThat(one.asRatio()).isEqualTo("0.50 (1 round, no interval)");
		// Logs of 0.45, 0.5, 0.55: mean -0.6965 (geometric mean 0.4983); sd 0.1004, /√3 = 0.0580; t(2) 4.303 → ±0.2494:
		// e^(-0.9459) = 0.3883 to e^(-0.4471) = 0.6395.
		Interval three = Interval.ofGeometricMean(new double[] { 0.45, 0.5, 0.55, Double.NaN });
		assertThat(three.estimate()).isCloseTo(0.4983, within(1e-4));
		assertThat(three.n()).isEqualTo(3);
		assertThat(three.low()).isCloseTo(0.3883, within(1e-3));
		assertThat(three.high()).isCloseTo(0.6395, within(1e-3));
		assertThat(three.holds(1.0)).isFalse();
		// Three A/A rounds all on one side of 1 are still not a difference (0.996-1.072); three that agree closely are.
		assertThat(Interval.ofGeometricMean(new double[] { 1.02, 1.05, 1.03 }).holds(1.0)).isTrue();
		assertThat(Interval.ofGeometricMean(new double[] { 1.10, 1.12, 1.11 }).holds(1.0)).isFalse();
		assertThat(Interval.ofGeometricMean(new double[] { 0.95, 1.05, 1.0 }).holds(1.0)).isTrue();
		assertThat(Interval.ofGeometricMean(new double[0])).isEqualTo(Interval.NONE);
	}


	@Test
	void aMetProbeIsPlacedAgainstTheNearestMissAboveIt() {
		// Tomcat + virtual threads as measured: p99 flat below its cliff (772 ms at 1,120 users), 4,596 ms at 1,500. A slope
		// fitted below the cliff (0.5) would put the crossing at 1,120·(1000/772)^2 = 1,879, beyond the miss; against the
		// miss it is 1,120·(1500/1120)^(ln(1000/772)/ln(4596/772)) = 1,120·1.3393^0.1451 = 1,168.
		RoundProbe below = probe(1_120, 772);
		List<RoundProbe> own = List.of(probe(1_000, 744), below, probe(1_500, 4_596));
		assertThat(SearchSummary.crossing(below, own, 0.5, 1000, 500)).isCloseTo(1_168, within(1.0));
		// A miss that broke the JVM has no latency: the slope's crossing, but never beyond its load.
		RoundProbe broke = new RoundProbe(1, 1, "v", 1_300, Verdict.FAILED, false, null, "OutOfMemoryError", "v/1300");
		assertThat(SearchSummary.crossing(below, List.of(below, broke), 0.5, 1000, 500)).isEqualTo(1_300);
		// A missed probe is placed against the nearest met load below it.
		RoundProbe above = probe(2_200, 1_250);
		assertThat(SearchSummary.crossing(above, List.of(probe(2_000, 800), above), 2, 1000, 500)).isCloseTo(2_097.6, within(0.1));
	}

}
