package lab.gatling;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How users arrive. Unknown names fail with the list of valid ones, never fall back to another test. */
public enum LoadShape {

	/** N users ramp up, then each loops request after request until the hold ends (the article's model). */
	CLOSED,
	/** A fixed arrival rate, each arrival one request, whatever the latency: no coordinated omission. */
	OPEN,
	/** A tenth of the users for the ramp time, then all the others at once. */
	SPIKE,
	/** CLOSED held long, to watch heap and RSS drift. */
	SOAK;

	/**
	 * Seconds from the start of the load until all of it is on: the ramp, and for a spike the ramp plus the pause
	 * after it, since its other 90 % of users arrive at twice the ramp time. The measured window starts there.
	 */
	public int steadyAfterSeconds(int rampSeconds) {
		return (this == SPIKE) ? 2 * rampSeconds : rampSeconds;
	}

	public static LoadShape parse(String name) {
		try {
			return valueOf(name.trim().toUpperCase(Locale.ROOT));
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("unknown load shape '" + name + "': valid shapes are " + names());
		}
	}

	public static String names() {
		return Arrays.stream(values()).map(s -> s.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", "));
	}

}
