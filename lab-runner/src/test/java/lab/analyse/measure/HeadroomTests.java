package lab.analyse.measure;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class HeadroomTests {

	@Test
	void costsPerRequestAndTheRateAtWhichTheHarnessCoresReachTheLimit() {
		// 2,000 requests/s; Gatling 0.2 cores, the downstream 0.08, the one harness core 40% busy.
		Headroom headroom = Headroom.of(2000, 0.2, 0.08, 40, 1).judgedAt(90);
		assertThat(headroom.injectorMsPerRequest()).isCloseTo(0.1, within(1e-9));
		assertThat(headroom.downstreamMsPerRequest()).isCloseTo(0.04, within(1e-9));
		// 0.4 core-seconds per second over 2,000 requests: 0.2 ms each; 0.9 core / 0.2 ms = 4,500 requests/s.
		assertThat(headroom.harnessMsPerRequest()).isCloseTo(0.2, within(1e-9));
		assertThat(headroom.validUpToRps()).isCloseTo(4500, within(1e-6));
	}

	@Test
	void repeatsGiveTheMedianOfEachFigure() {
		Headroom median = Headroom.median(List.of(Headroom.of(1000, 0.1, 0.02, 20, 1), Headroom.of(1000, 0.3, 0.04, 40, 1),
				Headroom.of(1000, 0.2, Double.NaN, 30, 1)), 90);
		assertThat(median.injectorMsPerRequest()).isCloseTo(0.2, within(1e-9));
		// The repeat without a downstream figure is left out: the median of 0.02 and 0.04 ms.
		assertThat(median.downstreamMsPerRequest()).isCloseTo(0.03, within(1e-9));
		assertThat(median.harnessMsPerRequest()).isCloseTo(0.3, within(1e-9));
		assertThat(median.validUpToRps()).isCloseTo(3000, within(1e-6));
	}

	@Test
	void withoutRequestsOrHarnessSamplesNothingIsClaimed() {
		assertThat(Headroom.of(0, 0.1, 0.1, 50, 1)).isEqualTo(Headroom.UNKNOWN);
		Headroom remote = Headroom.of(1000, 0.1, 0.02, Double.NaN, 1).judgedAt(90);
		assertThat(remote.injectorMsPerRequest()).isCloseTo(0.1, within(1e-9));
		assertThat(remote.validUpToRps()).isNaN();
	}

}
