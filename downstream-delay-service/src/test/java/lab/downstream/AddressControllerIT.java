package lab.downstream;

import lab.common.Contract;
import lab.common.ServiceProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * The downstream from its jar, as the lab runs it (an integration test: failsafe runs it after the jar is packaged): it must hold 10k waiting requests without an error. The 10 s
 * delay outlasts the time one test client needs to open 10k connections on a small machine (about 7 s on 2 cores).
 */
class AddressControllerIT {

	static ServiceProcess downstream;

	@BeforeAll
	static void start() throws Exception {
		downstream = ServiceProcess.start("downstream-delay-service");
	}

	@AfterAll
	static void stop() throws Exception {
		downstream.close();
	}

	@Test
	void answersAfterTheDelay() throws Exception {
		long start = System.nanoTime();
		Contract.assertAddress(Contract.get(downstream.url() + "/address/200"), 200);
		assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(200);
	}

	@Test
	void padsTheBodyOnRequest() throws Exception {
		assertThat(Contract.get(downstream.url() + "/address/0?padBytes=5000").body()).contains("x".repeat(5000));
		Contract.assertError(Contract.get(downstream.url() + "/address/0?padBytes=-3"), 400, "bad_parameter");
	}

	@Test
	void rejectsBadDelaysWith400() throws Exception {
		Contract.assertBadDelaysRejected(downstream.url());
	}

	@Test
	void holdsTenThousandWaitingRequests() throws Exception {
		Contract.resetPeak(downstream.url());
		Contract.Burst burst = Contract.burst(downstream.url() + "/address/10000", 10_000);
		int peak = Contract.peak(downstream.url());
		System.out.printf("downstream: 10000 x 10000 ms: peak in flight %d, wall %d ms, statuses %s%n", peak,
				burst.wallTime().toMillis(), burst.statuses());
		assertThat(burst.statuses()).containsExactly(entry(200, 10_000));
		assertThat(peak).isGreaterThanOrEqualTo(9_900);
	}

}
