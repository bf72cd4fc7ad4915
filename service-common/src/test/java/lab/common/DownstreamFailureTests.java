package lab.common;

import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Test;

import org.springframework.web.client.ResourceAccessException;

import static org.assertj.core.api.Assertions.assertThat;

class DownstreamFailureTests {

	@Test
	void connectFailuresAreUnreachable() {
		assertThat(DownstreamFailure.of(new ResourceAccessException("x", new ConnectException("refused"))))
			.isEqualTo(DownstreamFailure.UNREACHABLE);
		// a connect timeout is also a timeout by name: the connect check must win
		assertThat(DownstreamFailure.of(new ResourceAccessException("x", new HttpConnectTimeoutException("slow connect"))))
			.isEqualTo(DownstreamFailure.UNREACHABLE);
	}

	@Test
	void slowAnswersAreTimeouts() {
		assertThat(DownstreamFailure.of(new ResourceAccessException("x", new SocketTimeoutException("read"))))
			.isEqualTo(DownstreamFailure.TIMEOUT);
		assertThat(DownstreamFailure.of(new IOException(new HttpTimeoutException("request timed out"))))
			.isEqualTo(DownstreamFailure.TIMEOUT);
		assertThat(DownstreamFailure.of(new RuntimeException(new TimeoutException()))).isEqualTo(DownstreamFailure.TIMEOUT);
	}

	@Test
	void anythingElseIsABadResponse() {
		assertThat(DownstreamFailure.of(new IllegalStateException("boom"))).isEqualTo(DownstreamFailure.BAD_RESPONSE);
	}

}
