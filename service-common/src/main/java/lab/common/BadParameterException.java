package lab.common;

/** A request parameter the contract rejects; answered with 400 and a problem detail (see {@code ErrorResponses}). */
public class BadParameterException extends RuntimeException {

	public BadParameterException(String message) {
		super(message, null, false, false);
	}

}
