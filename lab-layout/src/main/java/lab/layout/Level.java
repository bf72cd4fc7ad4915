package lab.layout;

/**
 * One load level: a closed level holds a number of users, each sending its next request when the last one is
 * answered (the closed, spike and soak shapes); an open level sends a number of requests a second whatever the
 * answers (the open shape). The two never mix, so neither carries the other's number.
 */
public sealed interface Level permits Level.Closed, Level.Open {

	/** Concurrent users (at least 1). */
	record Closed(int users) implements Level {

		public Closed {
			if (users < 1) {
				throw new IllegalArgumentException("a closed level needs at least 1 user, got " + users);
			}
		}

		@Override
		public int amount() {
			return this.users;
		}

		@Override
		public String name() {
			return "users-" + this.users;
		}

	}

	/** Arrivals per second (at least 1), each one request. */
	record Open(int ratePerSecond) implements Level {

		public Open {
			if (ratePerSecond < 1) {
				throw new IllegalArgumentException("an open level needs at least 1 request a second, got " + ratePerSecond);
			}
		}

		@Override
		public int amount() {
			return this.ratePerSecond;
		}

		@Override
		public String name() {
			return "rate-" + this.ratePerSecond;
		}

	}

	/** The users of a closed level, the rate of an open one. */
	int amount();

	/** The level's directory name: {@code users-<n>} or {@code rate-<n>}. */
	String name();

	/** The level's directory name under repeat {@code k}: {@code users-<n>-r<k>}. */
	default String name(int repeat) {
		return name() + "-r" + repeat;
	}

	/**
	 * The level as {@code level.json} and {@code summary.json} record it: two fields, {@code users} and
	 * {@code ratePerSecond}, the one that does not apply written as 0 (the files' format since the first run).
	 */
	static Level fromFields(int users, int ratePerSecond) {
		if ((users > 0) == (ratePerSecond > 0)) {
			throw new IllegalArgumentException("a level has users or a rate, not both and not neither: users " + users
					+ ", ratePerSecond " + ratePerSecond);
		}
		return (ratePerSecond > 0) ? new Open(ratePerSecond) : new Closed(users);
	}

	/** {@code users} as the files record it (see {@link #fromFields}). */
	default int usersField() {
		return (this instanceof Closed closed) ? closed.users() : 0;
	}

	/** {@code ratePerSecond} as the files record it (see {@link #fromFields}). */
	default int ratePerSecondField() {
		return (this instanceof Open open) ? open.ratePerSecond() : 0;
	}

}
