package lab.db;

import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.server.ResponseStatusException;

/**
 * The blocking read the three JDBC services share: {@link AccountQuery#SQL} through the service's {@code JdbcClient}
 * (HikariCP), on whatever thread the service's model runs it (a virtual thread per request, a platform thread of
 * Tomcat's pool, a virtual thread of WebFlux's shared scheduler).
 */
public final class AccountJdbc {

	private AccountJdbc() {
	}

	/**
	 * The account {@code id} after the database's wait of {@code waitMs}, both as the request gave them.
	 *
	 * @throws lab.common.BadParameterException (400) for a bad id or wait
	 * @throws ResponseStatusException (404) for an id past the table
	 */
	public static Account read(JdbcClient jdbc, String id, String waitMs) {
		long key = AccountQuery.id(id);
		double seconds = AccountQuery.seconds(waitMs);
		return jdbc.sql(AccountQuery.SQL)
			.param("seconds", seconds)
			.param("id", key)
			.query((row, number) -> new Account(row.getLong("id"), row.getString("owner"), row.getLong("balance_cents")))
			.optional()
			.orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, AccountQuery.notFound(key)));
	}

}
