package lab.launch;

/** A service that would not start or stay up; the run records it and goes on with the next variant. */
public class ServiceFailure extends RuntimeException {

	public ServiceFailure(String message) {
		super(message, null, false, false);
	}

}
