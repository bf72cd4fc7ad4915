package lab.plan;

/** Bad input (a scenario file, a flag): one readable line naming the problem and the fix; exit code 2. */
public class PlanException extends RuntimeException {

	public PlanException(String message) {
		super(message, null, false, false);
	}

}
