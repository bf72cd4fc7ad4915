package lab.common;

import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Turns failures into the contract's error body, in MVC and WebFlux alike: 400 for a bad parameter, 502 when the
 * downstream cannot be reached or answers badly, 504 when it answers later than the response timeout. The body is
 * an RFC 9457 problem detail ({@code application/problem+json}: type, title, status, detail, instance) with the
 * contract's stable code as the extension member {@code error}; never a stack trace.
 */
@RestControllerAdvice
public class ErrorResponses {

	private final FailureLog failures;

	ErrorResponses(FailureLog failures) {
		this.failures = failures;
	}

	@ExceptionHandler(BadParameterException.class)
	ResponseEntity<ProblemDetail> badParameter(BadParameterException ex) {
		this.failures.record("bad_parameter", ex);
		return problem(HttpStatus.BAD_REQUEST, "bad_parameter", ex.getMessage());
	}

	@ExceptionHandler(Exception.class)
	ResponseEntity<ProblemDetail> downstream(Exception ex) {
		if (ex instanceof ErrorResponse framework) {
			// The framework's own errors (404, 405, ...) keep their status, in the same body shape.
			HttpStatusCode status = framework.getStatusCode();
			return problem(status, "http_" + status.value(), framework.getBody().getDetail());
		}
		DownstreamFailure failure = DownstreamFailure.of(ex);
		this.failures.record(failure.code(), ex);
		return problem(failure.status(), failure.code(), FailureLog.summary(ex));
	}

	/**
	 * The same answer for a failure outside an annotated controller (a WebFlux functional route), where
	 * {@code @ExceptionHandler} methods do not apply.
	 */
	public ResponseEntity<ProblemDetail> answer(Throwable failure) {
		if (failure instanceof BadParameterException bad) {
			return badParameter(bad);
		}
		return downstream((failure instanceof Exception ex) ? ex : new RuntimeException(failure));
	}

	static ResponseEntity<ProblemDetail> problem(HttpStatusCode status, String error, String detail) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
		problem.setProperty(ERROR, error);
		return ResponseEntity.status(status).body(problem);
	}

	/** The extension member that carries the contract's stable error code ({@code bad_parameter}, {@code downstream_timeout}, ...). */
	static final String ERROR = "error";

}
