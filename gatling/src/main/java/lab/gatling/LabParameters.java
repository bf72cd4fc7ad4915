package lab.gatling;

import java.nio.file.Path;

import lab.layout.Level;
import lab.layout.LoadShape;

/**
 * Every -D parameter of the simulation, read in one place, units in the names.
 *
 * @param baseUrl the service under test
 * @param shape closed | open | spike | soak
 * @param level concurrent users ({@code -Dusers}) for the closed, spike and soak shapes, arrivals per second
 * ({@code -DratePerSecond}) for the open one; only the one the shape uses is read
 * @param delayMs what each request asks the downstream to wait
 * @param rampSeconds time to reach the full load
 * @param holdSeconds time at the full load: the measured window
 * @param tailSeconds the load kept on after the window, unmeasured (the runner looks at the heap there)
 * @param requestTimeoutMs a request without an answer by then is a KO of kind timeout
 * @param outDir where the HdrHistogram log and the per-second request counts go
 */
public record LabParameters(String baseUrl, LoadShape shape, Level level, long delayMs,
		int rampSeconds, int holdSeconds, int tailSeconds, long requestTimeoutMs, Path outDir) {

	public static LabParameters fromSystemProperties() {
		LoadShape shape = LoadShape.parse(System.getProperty("shape", "closed"));
		int amount = (shape == LoadShape.OPEN) ? integer("ratePerSecond", 100) : integer("users", 100);
		require(amount >= 1, (shape == LoadShape.OPEN) ? "ratePerSecond must be at least 1" : "users must be at least 1");
		LabParameters parameters = new LabParameters(System.getProperty("baseUrl", "http://127.0.0.1:8080"), shape, shape.level(amount),
				integer("delayMs", 500), integer("rampSeconds", 5), integer("holdSeconds", 20), integer("tailSeconds", 0),
				integer("requestTimeoutMs", Integer.getInteger("gatling.http.requestTimeout", 60_000)),
				Path.of(System.getProperty("outDir", "target/lab-load")));
		parameters.validate();
		return parameters;
	}

	private void validate() {
		require(this.delayMs >= 0, "delayMs must not be negative");
		require(this.rampSeconds >= 0 && this.holdSeconds >= 1, "rampSeconds must be >= 0 and holdSeconds >= 1");
		require(this.tailSeconds >= 0, "tailSeconds must not be negative");
		require(this.baseUrl.startsWith("http://") || this.baseUrl.startsWith("https://"), "baseUrl must be an http(s) URL");
	}

	private static void require(boolean condition, String message) {
		if (!condition) {
			throw new IllegalArgumentException(message);
		}
	}

	private static int integer(String name, int defaultValue) {
		String value = System.getProperty(name);
		if (value == null) {
			return defaultValue;
		}
		try {
			return Integer.parseInt(value.trim());
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException(name + " must be an integer, got '" + value + "'");
		}
	}

}
