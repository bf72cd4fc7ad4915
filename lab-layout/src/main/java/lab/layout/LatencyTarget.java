package lab.layout;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A latency target in a service owner's terms, made of figures the lab measures over every request sent (failures at
 * their time to fail, unanswered ones at the request timeout): a percentile of latency (or the maximum) at most
 * {@code maxMs}, and errors at most {@code maxErrorPercent} of the requests. Written {@code p99<=1000ms,errors<=0.1%}
 * (spaces allowed; {@code s} for seconds); the lab's default is {@link #DEFAULT}. The runner judges each level's
 * steady window by it; the simulation turns it into Gatling assertions (over all of Gatling's requests, ramp
 * included).
 *
 * @param percentile 50, 95 or 99, or 100 for the maximum: the percentiles the lab measures of every request
 */
public record LatencyTarget(double percentile, double maxMs, double maxErrorPercent) {

	/** p99 at most 1 s and at most 0.1% errors: what a service owner is commonly held to. */
	public static final LatencyTarget DEFAULT = new LatencyTarget(99, 1000, 0.1);

	private static final Pattern LATENCY = Pattern.compile("(p50|p95|p99|max)\\s*(<=|≤)\\s*([0-9]+(?:\\.[0-9]+)?)\\s*(ms|s)");

	private static final Pattern ERRORS = Pattern.compile("errors\\s*(<=|≤)\\s*([0-9]+(?:\\.[0-9]+)?)\\s*%");

	private static final String EXAMPLE = "write it as p99<=1000ms,errors<=0.1% (p50, p95, p99 or max over every request sent, and errors in %)";

	/**
	 * Parses a target.
	 *
	 * @throws IllegalArgumentException with one line naming what is wrong and how to write it
	 */
	public static LatencyTarget parse(String text) {
		if (text == null || text.isBlank()) {
			throw new IllegalArgumentException("the latency target is empty: " + EXAMPLE);
		}
		Double percentile = null;
		Double ms = null;
		Double errors = null;
		for (String clause : text.trim().toLowerCase(Locale.ROOT).split("\\s*,\\s*")) {
			Matcher latency = LATENCY.matcher(clause);
			Matcher error = ERRORS.matcher(clause);
			if (latency.matches() && ms == null) {
				percentile = latency.group(1).equals("max") ? 100 : Double.parseDouble(latency.group(1).substring(1));
				ms = Double.parseDouble(latency.group(3)) * (latency.group(4).equals("s") ? 1000 : 1);
			}
			else if (error.matches() && errors == null) {
				errors = Double.parseDouble(error.group(2));
			}
			else {
				throw new IllegalArgumentException("latency target '" + text + "': cannot read '" + clause + "' (or it repeats): " + EXAMPLE);
			}
		}
		if (ms == null || errors == null) {
			throw new IllegalArgumentException("latency target '" + text + "' needs both a latency and an error clause: " + EXAMPLE);
		}
		if (ms <= 0 || errors > 100) {
			throw new IllegalArgumentException("latency target '" + text + "': the latency must be > 0 and errors at most 100%: " + EXAMPLE);
		}
		return new LatencyTarget(percentile, ms, errors);
	}

	/** Its name for the percentile: "p99", "p99.9", "max". */
	public String percentileName() {
		if (this.percentile >= 100) {
			return "max";
		}
		return "p" + ((this.percentile == Math.rint(this.percentile)) ? Long.toString((long) this.percentile) : Double.toString(this.percentile));
	}

	/** As it is written: {@code p99<=1000ms,errors<=0.1%}. */
	public String text() {
		return percentileName() + "<=" + number(this.maxMs) + "ms,errors<=" + number(this.maxErrorPercent) + "%";
	}

	/** As a reader reads it: "p99 ≤ 1,000 ms and errors ≤ 0.1%". */
	public String describe() {
		return percentileName() + " ≤ " + String.format(Locale.ROOT, "%,.0f", this.maxMs) + " ms and errors ≤ " + number(this.maxErrorPercent) + "%";
	}

	private static String number(double value) {
		return (value == Math.rint(value)) ? Long.toString((long) value) : Double.toString(value);
	}

}
