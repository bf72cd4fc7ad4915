package lab.layout;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

class LatencyTargetTests {

	@Test
	void aTargetReadsAsWrittenWithSpacesSecondsAndTheMaximum() {
		assertThat(LatencyTarget.parse("p99<=1000ms,errors<=0.1%")).isEqualTo(LatencyTarget.DEFAULT);
		assertThat(LatencyTarget.parse(" p95 <= 1.5 s , errors ≤ 1 % ")).isEqualTo(new LatencyTarget(95, 1500, 1));
		assertThat(LatencyTarget.parse("errors<=0%,max<=2s")).isEqualTo(new LatencyTarget(100, 2000, 0));
		assertThat(LatencyTarget.parse("p50<=300ms,errors<=0.5%").percentileName()).isEqualTo("p50");
		assertThat(LatencyTarget.DEFAULT.text()).isEqualTo("p99<=1000ms,errors<=0.1%");
		assertThat(LatencyTarget.parse(LatencyTarget.DEFAULT.text())).isEqualTo(LatencyTarget.DEFAULT);
		assertThat(LatencyTarget.DEFAULT.describe()).isEqualTo("p99 ≤ 1,000 ms and errors ≤ 0.1%");
	}

	@Test
	void aBadTargetIsOneLineNamingTheProblemAndHowToWriteIt() {
		for (String bad : new String[] { "p98<=1s,errors<=1%", "p99.9<=1s,errors<=1%", "p99<1000ms,errors<=1%", "p99<=1000ms", "errors<=1%", "p99<=1000,errors<=1%",
				"p99<=1000ms,p95<=10ms,errors<=1%", "p99<=0ms,errors<=1%", "" }) {
			Throwable thrown = catchThrowable(() -> LatencyTarget.parse(bad));
			assertThat(thrown).as(bad).isInstanceOf(IllegalArgumentException.class);
			assertThat(thrown.getMessage()).as(bad).doesNotContain("\n").contains("p99<=1000ms,errors<=0.1%");
		}
	}

}
