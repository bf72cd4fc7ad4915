package lab.db;

import lab.common.BadParameterException;

/**
 * The query every service of the database set runs per request, and the bounds of its parameters. The wait is the
 * database's: {@code pg_sleep} in the query's FROM list keeps the backend busy (and the pooled connection held) for
 * {@code waitMs}, as a slow query would, and the row is then read by its primary key. JDBC and R2DBC send the same
 * text with named parameters ({@code :seconds}, {@code :id}): Spring's {@code JdbcClient} and {@code DatabaseClient}
 * bind them.
 */
public final class AccountQuery {

	/** The table's rows (account.sql). */
	public static final long ROWS = 100_000;

	/** The longest wait a request may ask for, in ms. */
	public static final int MAX_WAIT_MS = 10_000;

	/** The wait when the request names none, in ms: a short query (the set's first workload). */
	public static final int DEFAULT_WAIT_MS = 5;

	public static final String SQL = "SELECT a.id, a.owner, a.balance_cents FROM account a CROSS JOIN pg_sleep(:seconds) WHERE a.id = :id";

	private AccountQuery() {
	}

	/**
	 * The account's id from the path, checked.
	 *
	 * @throws BadParameterException (400, a problem detail) for anything but a whole number of 1 or more
	 */
	public static long id(String text) {
		long id = whole(text, "id");
		if (id < 1) {
			throw new BadParameterException("id must be 1 or more, not " + text);
		}
		return id;
	}

	/**
	 * The wait in seconds, as {@code pg_sleep} takes it, from the request's {@code waitMs} (null: {@value #DEFAULT_WAIT_MS}).
	 *
	 * @throws BadParameterException (400, a problem detail) for a wait that is not a whole number of 0 to {@value #MAX_WAIT_MS} ms
	 */
	public static double seconds(String waitMs) {
		long wait = (waitMs == null) ? DEFAULT_WAIT_MS : whole(waitMs, "waitMs");
		if (wait < 0 || wait > MAX_WAIT_MS) {
			throw new BadParameterException("waitMs must be 0 to " + MAX_WAIT_MS + ", not " + waitMs);
		}
		return wait / 1000.0;
	}

	private static long whole(String text, String name) {
		try {
			return Long.parseLong(text.trim());
		}
		catch (NumberFormatException | NullPointerException ex) {
			throw new BadParameterException(name + " must be a whole number, not '" + text + "'");
		}
	}

	/** The message of the 404 for an id past the table's rows. */
	public static String notFound(long id) {
		return "no account " + id;
	}

}
