package lab.common;

import org.springframework.http.HttpStatus;

/**
 * What went wrong calling the downstream, read from the exception's cause chain. Each client library throws its
 * own types (HC5, the JDK client, HttpURLConnection, Reactor Netty), so the chain is matched by the JDK types they
 * wrap and, for Netty's and HC5's own timeout types, by name.
 */
public enum DownstreamFailure {

	UNREACHABLE(HttpStatus.BAD_GATEWAY, "downstream_unreachable"),
	TIMEOUT(HttpStatus.GATEWAY_TIMEOUT, "downstream_timeout"),
	BAD_RESPONSE(HttpStatus.BAD_GATEWAY, "downstream_error");

	private final HttpStatus status;

	private final String code;

	DownstreamFailure(HttpStatus status, String code) {
		this.status = status;
		this.code = code;
	}

	public HttpStatus status() {
		return this.status;
	}

	public String code() {
		return this.code;
	}

	public static DownstreamFailure of(Throwable failure) {
		// A connect timeout is a failure to reach the downstream (502), not a slow answer (504): check it first.
		for (Throwable t = failure; t != null; t = t.getCause()) {
			if (t instanceof java.net.ConnectException || t instanceof java.net.UnknownHostException
					|| t instanceof java.net.NoRouteToHostException || t instanceof java.net.http.HttpConnectTimeoutException
					|| t.getClass().getSimpleName().contains("ConnectTimeout")) {
				return UNREACHABLE;
			}
		}
		for (Throwable t = failure; t != null; t = t.getCause()) {
			if (t instanceof java.net.SocketTimeoutException || t instanceof java.net.http.HttpTimeoutException
					|| t instanceof java.util.concurrent.TimeoutException
					|| t.getClass().getSimpleName().contains("Timeout")) {
				return TIMEOUT;
			}
		}
		return BAD_RESPONSE;
	}

}
