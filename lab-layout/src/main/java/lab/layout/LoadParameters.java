package lab.layout;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The simulation's parameters, the one contract between the runner (which writes them as {@code -D} properties) and
 * the simulation (which reads them): every name is spelled here once. Run alone, the simulation falls back to its
 * documented defaults; a lab run marks its properties with {@link #LAB_RUN}, and then a missing one is an error naming
 * it, never a silent default (100 users against 127.0.0.1:8080).
 *
 * @param baseUrl the service under test
 * @param shape closed | open | spike | soak
 * @param level concurrent users ({@code users}) for the closed, spike and soak shapes, arrivals per second
 * ({@code ratePerSecond}) for the open one; only the one the shape uses is written or read
 * @param delayMs what each request asks the downstream to wait
 * @param rampSeconds time to reach the full load
 * @param holdSeconds time at the full load: the measured window
 * @param tailSeconds the load kept on after the window, unmeasured (the runner looks at the heap there)
 * @param requestTimeoutMs a request without an answer by then is a KO of kind timeout
 * @param target the latency target, given to Gatling as assertions; null for none (optional in a lab run too)
 * @param work the serialise-and-hash rounds each request asks of the service ({@code ?work=}; 0: pure waiting)
 * @param responseBytes the answer's size each request asks for ({@code ?bytes=}; 0: the downstream's body)
 */
public record LoadParameters(String baseUrl, LoadShape shape, Level level, long delayMs, int rampSeconds, int holdSeconds,
		int tailSeconds, long requestTimeoutMs, LatencyTarget target, int work, int responseBytes) {

	public static final String BASE_URL = "baseUrl";

	public static final String SHAPE = "shape";

	public static final String USERS = "users";

	public static final String RATE_PER_SECOND = "ratePerSecond";

	public static final String DELAY_MS = "delayMs";

	public static final String RAMP_SECONDS = "rampSeconds";

	public static final String HOLD_SECONDS = "holdSeconds";

	public static final String TAIL_SECONDS = "tailSeconds";

	public static final String REQUEST_TIMEOUT_MS = "requestTimeoutMs";

	/** The latency target ({@link LatencyTarget#text}); optional. */
	public static final String LATENCY_TARGET = "latencyTarget";

	/** Serialise-and-hash rounds per request; optional (0). */
	public static final String WORK = "work";

	/** The answer's size in bytes; optional (0). */
	public static final String RESPONSE_BYTES = "responseBytes";

	/** Gatling's own request timeout, set to the same value. */
	public static final String GATLING_REQUEST_TIMEOUT = "gatling.http.requestTimeout";

	/** Where the simulation writes its latency log and per-second counts; the runner adds it per injector. */
	public static final String OUT_DIR = "outDir";

	/** Set by the runner: every parameter must then be given. */
	public static final String LAB_RUN = "labRun";

	/** The defaults of a standalone run (the simulation's README documents them). */
	public static final LoadParameters STANDALONE = new LoadParameters("http://127.0.0.1:8080", LoadShape.CLOSED, new Level.Closed(100), 500,
			5, 20, 0, 60_000, null, 0, 0);

	/** The properties a lab run passes, as {@code name=value}, marked as a lab run. */
	public List<String> properties() {
		List<String> properties = new ArrayList<>();
		properties.add(BASE_URL + "=" + this.baseUrl);
		properties.add(SHAPE + "=" + this.shape.id());
		properties.add(switch (this.level) {
			case Level.Closed closed -> USERS + "=" + closed.users();
			case Level.Open open -> RATE_PER_SECOND + "=" + open.ratePerSecond();
		});
		properties.add(DELAY_MS + "=" + this.delayMs);
		properties.add(RAMP_SECONDS + "=" + this.rampSeconds);
		properties.add(HOLD_SECONDS + "=" + this.holdSeconds);
		properties.add(TAIL_SECONDS + "=" + this.tailSeconds);
		properties.add(REQUEST_TIMEOUT_MS + "=" + this.requestTimeoutMs);
		properties.add(GATLING_REQUEST_TIMEOUT + "=" + this.requestTimeoutMs);
		if (this.target != null) {
			properties.add(LATENCY_TARGET + "=" + this.target.text());
		}
		properties.add(WORK + "=" + this.work);
		properties.add(RESPONSE_BYTES + "=" + this.responseBytes);
		properties.add(LAB_RUN + "=true");
		return properties;
	}

	/**
	 * The parameters from {@code property} (e.g. {@code System::getProperty}): with {@link #LAB_RUN} set, each one the
	 * shape needs must be there; without it, a missing one takes its {@link #STANDALONE} default.
	 *
	 * @throws IllegalArgumentException naming the parameter that is missing or malformed
	 */
	public static LoadParameters read(Function<String, String> property) {
		boolean strict = Boolean.parseBoolean(property.apply(LAB_RUN));
		Reader in = new Reader(property, strict);
		LoadShape shape = LoadShape.parse(in.text(SHAPE, STANDALONE.shape.id()));
		int amount = (shape == LoadShape.OPEN) ? in.integer(RATE_PER_SECOND, 100) : in.integer(USERS, STANDALONE.level.amount());
		require(amount >= 1, ((shape == LoadShape.OPEN) ? RATE_PER_SECOND : USERS) + " must be at least 1");
		long fallbackTimeout = (property.apply(GATLING_REQUEST_TIMEOUT) != null) ? in.integer(GATLING_REQUEST_TIMEOUT, 0) : STANDALONE.requestTimeoutMs;
		LoadParameters parameters = new LoadParameters(in.text(BASE_URL, STANDALONE.baseUrl), shape, shape.level(amount),
				in.integer(DELAY_MS, (int) STANDALONE.delayMs), in.integer(RAMP_SECONDS, STANDALONE.rampSeconds),
				in.integer(HOLD_SECONDS, STANDALONE.holdSeconds), in.integer(TAIL_SECONDS, STANDALONE.tailSeconds),
				in.integer(REQUEST_TIMEOUT_MS, (int) fallbackTimeout),
				(property.apply(LATENCY_TARGET) != null) ? LatencyTarget.parse(property.apply(LATENCY_TARGET)) : null,
				(property.apply(WORK) != null) ? in.integer(WORK, 0) : 0, (property.apply(RESPONSE_BYTES) != null) ? in.integer(RESPONSE_BYTES, 0) : 0);
		require(parameters.delayMs >= 0, DELAY_MS + " must not be negative");
		require(parameters.rampSeconds >= 0 && parameters.holdSeconds >= 1, RAMP_SECONDS + " must be >= 0 and " + HOLD_SECONDS + " >= 1");
		require(parameters.tailSeconds >= 0, TAIL_SECONDS + " must not be negative");
		require(parameters.work >= 0 && parameters.responseBytes >= 0, WORK + " and " + RESPONSE_BYTES + " must not be negative");
		require(parameters.baseUrl.startsWith("http://") || parameters.baseUrl.startsWith("https://"), BASE_URL + " must be an http(s) URL");
		return parameters;
	}

	/** The path each request asks for: {@code /address/500}, with {@code ?work=&bytes=} when it asks for work. */
	public String requestPath() {
		return requestPath(this.delayMs, this.work, this.responseBytes);
	}

	/** The path of a request for {@code delayMs} asking {@code work} rounds and a {@code responseBytes} answer (0 and 0: none). */
	public static String requestPath(long delayMs, int work, int responseBytes) {
		String path = "/address/" + delayMs;
		return (work == 0 && responseBytes == 0) ? path : path + "?work=" + work + "&bytes=" + responseBytes;
	}

	/**
	 * The output directory from {@code property}: required in a lab run, {@code target/lab-load} alone.
	 */
	public static String outDir(Function<String, String> property) {
		return new Reader(property, Boolean.parseBoolean(property.apply(LAB_RUN))).text(OUT_DIR, "target/lab-load");
	}

	private static void require(boolean condition, String message) {
		if (!condition) {
			throw new IllegalArgumentException(message);
		}
	}

	/** Reads named properties, strictly (a lab run) or with defaults (alone). */
	private record Reader(Function<String, String> property, boolean strict) {

		String text(String name, String fallback) {
			String value = this.property.apply(name);
			if (value == null) {
				if (this.strict) {
					throw new IllegalArgumentException(name + " is missing: a lab run (" + LAB_RUN + "=true) passes every parameter;"
							+ " a runner and a simulation of different versions?");
				}
				return fallback;
			}
			return value.trim();
		}

		int integer(String name, int fallback) {
			String value = text(name, String.valueOf(fallback));
			try {
				return Integer.parseInt(value);
			}
			catch (NumberFormatException ex) {
				throw new IllegalArgumentException(name + " must be an integer, got '" + value + "'");
			}
		}

	}

}
