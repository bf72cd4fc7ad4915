package lab.app;

import lab.common.ProxyContractTests;

import org.springframework.beans.factory.annotation.Value;

import static org.assertj.core.api.Assertions.assertThat;

/** The shared contract; this model never has more downstream calls in flight than its thread pool. */
class AddressControllerTests extends ProxyContractTests {

	@Value("${server.tomcat.threads.max}")
	int poolSize;

	@Override
	protected String module() {
		return "app-tomcat-platform";
	}

	@Override
	protected long burstDelayMs() {
		return 300;
	}

	@Override
	protected void assertConcurrency(int peakInFlight) {
		assertThat(peakInFlight).isPositive().isLessThanOrEqualTo(this.poolSize);
	}

}
