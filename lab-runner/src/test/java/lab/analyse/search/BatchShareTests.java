package lab.analyse.search;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** What a variance study's arms share batch by batch: worked by hand on six batches. */
class BatchShareTests {

	@Test
	void armsThatMoveTogetherFromBatchToBatchShareTheHostNotAJvm() {
		// Two arms; batch 3 slow for both (the host), the rest as noise of each JVM.
		Map<String, Map<Integer, Double>> byArm = new LinkedHashMap<>();
		byArm.put("default", Map.of(1, 0.00, 2, -0.10, 3, 0.25, 4, -0.05, 5, 0.10, 6, 0.00));
		byArm.put("default after 2x", Map.of(1, 0.02, 2, -0.04, 3, 0.15, 4, 0.00, 5, 0.00, 6, -0.03));
		BatchShare share = BatchShare.of(byArm);
		// Means 0.0333 and 0.0167; deviations (-0.0333, -0.1333, 0.2167, -0.0833, 0.0667, -0.0333) and
		// (0.0033, -0.0567, 0.1333, -0.0167, -0.0167, -0.0467): Σab = 0.03817, Σa² = 0.07833, Σb² = 0.02373.
		double[] a = { 0.00, -0.10, 0.25, -0.05, 0.10, 0.00 };
		double[] b = { 0.02, -0.04, 0.15, 0.00, 0.00, -0.03 };
		double ma = 0.2 / 6;
		double mb = 0.1 / 6;
		double sab = 0;
		double saa = 0;
		double sbb = 0;
		for (int j = 0; j < 6; j++) {
			sab += (a[j] - ma) * (b[j] - mb);
			saa += (a[j] - ma) * (a[j] - ma);
			sbb += (b[j] - mb) * (b[j] - mb);
		}
		assertThat(sab).isCloseTo(0.03817, within(1e-5));
		assertThat(saa).isCloseTo(0.07833, within(1e-5));
		assertThat(sbb).isCloseTo(0.02373, within(1e-5));
		assertThat(share.batches()).isEqualTo(6);
		assertThat(share.r()).isCloseTo(sab / Math.sqrt(saa * sbb), within(1e-12)).isCloseTo(0.8851, within(1e-4));
		assertThat(share.sharedSd()).isCloseTo(Math.sqrt(sab / 5), within(1e-12));
		// Fisher's z with 6 - 3 degrees of freedom.
		double z = 0.5 * Math.log((1 + share.r()) / (1 - share.r()));
		assertThat(share.rLow()).isCloseTo(Math.tanh(z - 1.959964 / Math.sqrt(3)), within(1e-9));
		assertThat(share.rHigh()).isCloseTo(Math.tanh(z + 1.959964 / Math.sqrt(3)), within(1e-9)).isLessThan(1);
		assertThat(share.line("app-webflux")).isEqualTo("- app-webflux: the arms' JVM means (default, default after 2x) across 6 batches: r = 0.89 (95%: 0.26 "
				+ "to 0.99); they move together by ±8.7% of p99, the host between batches (minutes apart), not a JVM: the spread between JVMs above holds it");
	}

	@Test
	void oneArmOrFewerThanFourSharedBatchesSayNothing() {
		assertThat(BatchShare.of(Map.of("default", Map.of(1, 0.0, 2, 0.1, 3, 0.2, 4, 0.0)))).isNull();
		Map<String, Map<Integer, Double>> byArm = new LinkedHashMap<>();
		byArm.put("default", Map.of(1, 0.0, 2, 0.1, 3, 0.2, 4, 0.0));
		byArm.put("heap-fixed", Map.of(1, 0.0, 2, 0.1, 3, 0.2));
		assertThat(BatchShare.of(byArm)).isNull();
		// Arms that move apart: no shared part.
		byArm.put("heap-fixed", Map.of(1, 0.1, 2, 0.0, 3, -0.1, 4, 0.1));
		assertThat(BatchShare.of(byArm).sharedSd()).isZero();
		assertThat(BatchShare.of(byArm).r()).isNegative();
		assertThat(BatchShare.of(byArm).line("v")).endsWith("they do not move together: nothing the batches share");
		// Together, but on so few batches that the interval reaches 0: said so.
		byArm.put("heap-fixed", Map.of(1, 0.05, 2, 0.0, 3, 0.1, 4, 0.1));
		assertThat(BatchShare.of(byArm).rLow()).isNegative();
		assertThat(BatchShare.of(byArm).line("v")).endsWith("the interval reaches 0, so more batches would tell");
	}

}
