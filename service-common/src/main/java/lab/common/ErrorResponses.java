package lab.common;

import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Turns failures into the contract's JSON error body, in MVC and WebFlux alike: 400 for a bad parameter, 502 when
 * the downstream cannot be reached or answers badly, 504 when it answers later than the response timeout.
 */
@RestControllerAdvice
class ErrorResponses {

	private final FailureLog failures;

	ErrorResponses(FailureLog failures) {
		this.failures = failures;
	}

	@ExceptionHandler(BadParameterException.class)
	ResponseEntity<ErrorBody> badParameter(BadParameterException ex) {
		this.failures.record("bad_parameter", ex);
		return ResponseEntity.status(HttpStatus.BAD_REQUEST).body(new ErrorBody("bad_parameter", ex.getMessage()));
	}

	@ExceptionHandler(Exception.class)
	ResponseEntity<ErrorBody> downstream(Exception ex) {
		if (ex instanceof ErrorResponse framework) {
			// The framework's own errors (404, 405, ...) keep their status, in the same body shape.
			HttpStatusCode status = framework.getStatusCode();
			return ResponseEntity.status(status).body(new ErrorBody("http_" + status.value(), framework.getBody().getDetail()));
		}
		DownstreamFailure failure = DownstreamFailure.of(ex);
		this.failures.record(failure.code(), ex);
		return ResponseEntity.status(failure.status()).body(new ErrorBody(failure.code(), FailureLog.summary(ex)));
	}

}
