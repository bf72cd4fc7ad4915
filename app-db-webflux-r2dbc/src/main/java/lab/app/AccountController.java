package lab.app;

import lab.common.RequestWork;
import lab.db.Account;
import lab.db.AccountAnswer;
import lab.db.AccountQuery;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * {@code GET /account/{id}?waitMs=N&work=R}, the database set's contract ({@link AccountQuery}). Non-blocking end to end:
 * R2DBC (r2dbc-postgresql) through r2dbc-pool, no thread held while PostgreSQL waits; the pool (lab.db.pool-size)
 * bounds the requests in the database at once, the others wait in the pool's queue of acquisitions.
 */
@RestController
class AccountController {

	private final DatabaseClient database;

	AccountController(DatabaseClient database) {
		this.database = database;
	}

	/** The read alone: the body is the row ({@link Account}), written by Boot's JSON encoder. */
	@GetMapping(path = "/account/{id}", params = { "!work", "!bytes" }, produces = MediaType.APPLICATION_JSON_VALUE)
	Mono<Account> account(@PathVariable String id, @RequestParam(required = false) String waitMs) {
		return read(id, waitMs);
	}

	/**
	 * The read, then the request's CPU work ({@link AccountAnswer}) on the thread the row arrived on (the driver's event
	 * loop, as WebFlux runs a request's own code): only when it asks for work.
	 */
	@GetMapping(path = "/account/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
	Mono<String> accountWithWork(@PathVariable String id, @RequestParam(required = false) String waitMs, @RequestParam(required = false) String work,
			@RequestParam(required = false) String bytes) {
		Mono<Account> row = read(id, waitMs);
		RequestWork asked = RequestWork.parse(work, bytes);
		return row.map(account -> AccountAnswer.of(account, asked));
	}

	/** The row, its parameters checked now (a bad one is a 400 before any query). */
	private Mono<Account> read(String id, String waitMs) {
		long key = AccountQuery.id(id);
		double seconds = AccountQuery.seconds(waitMs);
		return this.database.sql(AccountQuery.SQL)
			.bind("seconds", seconds)
			.bind("id", key)
			.map((row, metadata) -> new Account(row.get("id", Long.class), row.get("owner", String.class), row.get("balance_cents", Long.class)))
			.one()
			.switchIfEmpty(Mono.error(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, AccountQuery.notFound(key))));
	}

}
