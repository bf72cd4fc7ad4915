package lab.common;

/**
 * Validates the {@code delayMs} path segment. It is taken as a string on purpose: a framework type conversion
 * would fail with a different exception and body in MVC and WebFlux, and the contract wants one 400 body.
 */
public final class DelayMs {

	/** The largest delay any service accepts: a minute, far above every scenario, low enough to bound a mistake. */
	public static final long MAX_MS = 60_000;

	private DelayMs() {
	}

	public static long parse(String raw) {
		long value;
		try {
			value = Long.parseLong(raw);
		}
		catch (NumberFormatException ex) {
			throw new BadParameterException("delayMs must be an integer number of milliseconds, got '" + clip(raw) + "'");
		}
		if (value < 0 || value > MAX_MS) {
			throw new BadParameterException("delayMs must be between 0 and " + MAX_MS + ", got " + value);
		}
		return value;
	}

	/** A bad value as an error line quotes it: at most 40 characters. */
	static String clip(String raw) {
		return (raw.length() > 40) ? raw.substring(0, 40) + "..." : raw;
	}

}
