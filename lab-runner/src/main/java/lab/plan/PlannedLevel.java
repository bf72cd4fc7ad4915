package lab.plan;

import lab.layout.Level;

/**
 * One level of the plan: the level to run, and the users the scenario asked for when the descriptor limit forced
 * fewer.
 *
 * @param level the users (closed, spike, soak) or the arrivals per second (open) to run
 * @param cappedFrom the users asked for when the descriptor limit forced fewer, else null
 */
public record PlannedLevel(Level level, Integer cappedFrom) {

	public static PlannedLevel of(Level level) {
		return new PlannedLevel(level, null);
	}

	/** The level's directory name. */
	public String id() {
		return this.level.name();
	}

}
