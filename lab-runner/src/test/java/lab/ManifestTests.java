package lab;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ManifestTests {

	@Test
	void pinnedThresholdIsTheServicesDefaultUnlessTheRunSetsIt() {
		assertThat(Manifest.pinnedThreshold(List.of("-Xmx512m"), false)).isEqualTo("1ms (lab.pinned-threshold, the services' default)");
		assertThat(Manifest.pinnedThreshold(List.of("-Dlab.pinned-threshold=0ms"), false))
			.isEqualTo("0ms (lab.pinned-threshold, set for this run)");
		assertThat(Manifest.pinnedThreshold(List.of(), true)).startsWith("1ms").contains("lab_pinned_threshold_seconds");
	}

}
