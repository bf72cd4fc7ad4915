package lab.app;

import lab.common.RequestWork;
import lab.db.Account;
import lab.db.AccountAnswer;
import lab.db.AccountJdbc;
import lab.db.AccountQuery;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /account/{id}?waitMs=N&work=R}, the database set's contract ({@link AccountQuery}). WebFlux with blocking JDBC:
 * the call runs on the one shared virtual-thread scheduler, wrapped in a {@code Mono}, so the event loop never blocks;
 * the pool (HikariCP, lab.db.pool-size) bounds the requests in the database at once, the others park their virtual
 * thread waiting for a connection.
 */
@RestController
class AccountController {

	private final JdbcClient jdbc;

	private final Scheduler virtualThreads;

	AccountController(JdbcClient jdbc, Scheduler virtualThreads) {
		this.jdbc = jdbc;
		this.virtualThreads = virtualThreads;
	}

	/** The read alone: the body is the row ({@link Account}), written by Boot's JSON encoder. */
	@GetMapping(path = "/account/{id}", params = { "!work", "!bytes" }, produces = MediaType.APPLICATION_JSON_VALUE)
	Mono<Account> account(@PathVariable String id, @RequestParam(required = false) String waitMs) {
		return Mono.fromCallable(() -> AccountJdbc.read(this.jdbc, id, waitMs)).subscribeOn(this.virtualThreads);
	}

	/** The read, then the request's CPU work on the same virtual thread ({@link AccountAnswer}): only when it asks for work. */
	@GetMapping(path = "/account/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
	Mono<String> accountWithWork(@PathVariable String id, @RequestParam(required = false) String waitMs, @RequestParam(required = false) String work,
			@RequestParam(required = false) String bytes) {
		RequestWork asked = RequestWork.parse(work, bytes);
		return Mono.fromCallable(() -> AccountAnswer.of(AccountJdbc.read(this.jdbc, id, waitMs), asked)).subscribeOn(this.virtualThreads);
	}

}
