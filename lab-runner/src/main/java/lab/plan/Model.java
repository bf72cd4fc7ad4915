package lab.plan;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

import com.fasterxml.jackson.annotation.JsonCreator;

/** The load shape, as the gatling module's {@code LoadShape} names it. */
public enum Model {

	CLOSED, OPEN, SPIKE, SOAK;

	@JsonCreator
	public static Model parse(String name) {
		for (Model model : values()) {
			if (model.name().equalsIgnoreCase(name.trim())) {
				return model;
			}
		}
		throw new PlanException("unknown model '" + name + "': valid models are " + names());
	}

	public static String names() {
		return Arrays.stream(values()).map(Model::id).collect(Collectors.joining(", "));
	}

	/** Seconds until all the load is on: the ramp, and for a spike twice the ramp (as the simulation's LoadShape). */
	public int steadyAfterSeconds(int rampSeconds) {
		return (this == SPIKE) ? 2 * rampSeconds : rampSeconds;
	}

	public String id() {
		return name().toLowerCase(Locale.ROOT);
	}

}
