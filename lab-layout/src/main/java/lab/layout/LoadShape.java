package lab.layout;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How users arrive: the scenario's {@code model}, the load generator's {@code shape}. Unknown names fail with the
 * list of valid ones, never fall back to another shape.
 */
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

	/** A level of this shape: {@code amount} arrivals per second for the open shape, else {@code amount} users. */
	public Level level(int amount) {
		return (this == OPEN) ? new Level.Open(amount) : new Level.Closed(amount);
	}

	/** The shape's name in scenario files and on the load generator's command line. */
	public String id() {
		return name().toLowerCase(Locale.ROOT);
	}

	/** The shape named, in any case; an unknown name fails with the list of valid ones. */
	public static LoadShape parse(String name) {
		for (LoadShape shape : values()) {
			if (shape.name().equalsIgnoreCase(name.trim())) {
				return shape;
			}
		}
		throw new IllegalArgumentException("unknown load shape '" + name + "': valid shapes are " + names());
	}

	public static String names() {
		return Arrays.stream(values()).map(LoadShape::id).collect(Collectors.joining(", "));
	}

}
