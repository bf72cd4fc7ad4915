package lab.app;

import lab.common.ProxyContractTests;

import static org.assertj.core.api.Assertions.assertThat;

/** The shared contract; this model holds every request in flight at once. */
class AddressControllerTests extends ProxyContractTests {

	@Override
	protected String module() {
		return "app-jetty-loom";
	}

	@Override
	protected long burstDelayMs() {
		return 6000;
	}

	@Override
	protected void assertConcurrency(int peakInFlight) {
		assertThat(peakInFlight).isGreaterThanOrEqualTo(1900);
	}

}
