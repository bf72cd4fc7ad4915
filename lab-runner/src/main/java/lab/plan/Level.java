package lab.plan;

import lab.results.LevelDir;

/**
 * One load level: concurrent users (closed, spike, soak) or arrivals per second (open).
 *
 * @param users concurrent users, 0 for the open model
 * @param ratePerSecond arrivals per second, 0 for the closed models
 * @param cappedFrom the users asked for when the descriptor limit forced fewer, else 0
 */
public record Level(int users, int ratePerSecond, int cappedFrom) {

	public static Level users(int users) {
		return new Level(users, 0, 0);
	}

	public static Level rate(int ratePerSecond) {
		return new Level(0, ratePerSecond, 0);
	}

	public String id() {
		return LevelDir.name(this.users, this.ratePerSecond);
	}

}
