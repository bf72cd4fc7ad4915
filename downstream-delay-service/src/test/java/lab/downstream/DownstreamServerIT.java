package lab.downstream;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import lab.common.Contract;
import lab.common.ServiceProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * The downstream from its jar, as the lab runs it (an integration test: failsafe runs it after the jar is packaged):
 * the contract, the management endpoints, answers in request order on one connection, and 10k waiting requests
 * without an error. The 10 s delay outlasts the time one test client needs to open 10k connections on a small
 * machine (about 7 s on 2 cores).
 */
@Tag("slow") // not in ./lab test --fast: starts services or runs load
class DownstreamServerIT {

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
	void answersUnknownPathsAndMethodsWithTheContractsErrorBody() throws Exception {
		Contract.assertError(Contract.get(downstream.url() + "/nothing"), 404, "http_404");
		Contract.assertError(Contract.get(downstream.url() + "/address/1/2"), 404, "http_404");
		try (HttpClient client = HttpClient.newHttpClient()) {
			HttpRequest post = HttpRequest.newBuilder(URI.create(downstream.url() + "/address/1")).POST(HttpRequest.BodyPublishers.ofString("x")).build();
			Contract.assertError(client.send(post, HttpResponse.BodyHandlers.ofString()), 405, "http_405");
		}
	}

	@Test
	void publishesItsMetersForPrometheus() throws Exception {
		Contract.get(downstream.url() + "/address/1");
		String scrape = Contract.get(downstream.url() + "/actuator/prometheus").body();
		assertThat(scrape).contains("downstream_overhead_seconds_bucket{le=\"0.001\"}", "downstream_inflight ", "downstream_inflight_peak ",
				"jvm_memory_used_bytes{", "process_memory_rss_bytes ", "jvm_gc_live_data_size_bytes ");
		assertThat(Contract.scrape(downstream.url(), "downstream_overhead_seconds_count")).isPositive();
	}

	@Test
	void answersPipelinedRequestsInTheOrderTheyCame() throws Exception {
		// A long delay sent before a short one on the same connection: HTTP/1.1 wants the long one's answer first.
		try (Socket socket = new Socket("127.0.0.1", downstream.port())) {
			socket.setSoTimeout(10_000);
			OutputStream out = socket.getOutputStream();
			out.write(("GET /address/300 HTTP/1.1\r\nHost: x\r\n\r\nGET /address/0 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII));
			out.flush();
			String both = new String(readAll(socket.getInputStream()), StandardCharsets.US_ASCII);
			assertThat(both.indexOf("\"delayMs\":300")).isPositive().isLessThan(both.indexOf("\"delayMs\":0"));
		}
	}

	@Test
	void refusesAnUnknownArgumentWithOneLineAndExitCode2() throws Exception {
		Path jar = Path.of(System.getProperty("lab.root", "..")).resolve("downstream-delay-service/target/downstream-delay-service.jar");
		Path log = Files.createTempFile(Files.createDirectories(Path.of("target")), "refused-argument", ".log");
		Process process = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-jar", jar.toString(), "--server.prot=1")
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
		assertThat(process.exitValue()).isEqualTo(2);
		List<String> lines = Files.readAllLines(log);
		assertThat(lines).hasSize(1);
		assertThat(lines.get(0)).contains("unknown argument '--server.prot=1'", "--server.port=");
	}

	@Test
	void leavesEveryTenthRequestUnansweredUnderTheTestFaultButNotTheProbe() throws Exception {
		try (ServiceProcess faulty = ServiceProcess.start("downstream-delay-service", "--lab.fault.hang-every=2");
				HttpClient client = HttpClient.newBuilder().build()) {
			HttpRequest probe = HttpRequest.newBuilder(URI.create(faulty.url() + "/address/0")).header("X-Lab-Probe", "1").timeout(java.time.Duration.ofSeconds(5)).build();
			for (int i = 0; i < 4; i++) {
				assertThat(client.send(probe, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
			}
			HttpRequest plain = HttpRequest.newBuilder(URI.create(faulty.url() + "/address/0")).timeout(java.time.Duration.ofSeconds(2)).build();
			int answered = 0;
			for (int i = 0; i < 4; i++) {
				try {
					client.send(plain, HttpResponse.BodyHandlers.ofString());
					answered++;
				}
				catch (java.net.http.HttpTimeoutException ex) {
					// the fault: this one is never answered
				}
			}
			assertThat(answered).isEqualTo(2);
		}
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

	private static byte[] readAll(InputStream in) throws java.io.IOException {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		in.transferTo(bytes);
		return bytes.toByteArray();
	}

}
