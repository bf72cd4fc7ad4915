package lab.app;

import lab.common.RequestWork;
import lab.db.Account;
import lab.db.AccountAnswer;
import lab.db.AccountJdbc;
import lab.db.AccountQuery;

import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /account/{id}?waitMs=N&work=R}, the database set's contract ({@link AccountQuery}).
 * Blocking JDBC on Tomcat's bounded pool of 200 platform threads: a thread is held for the whole request, the
 * database's wait included; the pool (HikariCP, lab.db.pool-size) bounds the requests in the database at once, the
 * others wait for a connection on their platform thread.
 */
@RestController
class AccountController {

	private final JdbcClient jdbc;

	AccountController(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/** The read alone: the body is the row ({@link Account}), written by Boot's JSON converter. */
	@GetMapping(path = "/account/{id}", params = { "!work", "!bytes" }, produces = MediaType.APPLICATION_JSON_VALUE)
	Account account(@PathVariable String id, @RequestParam(required = false) String waitMs) {
		return AccountJdbc.read(this.jdbc, id, waitMs);
	}

	/** The read, then the request's CPU work on the same thread ({@link AccountAnswer}): only when it asks for work. */
	@GetMapping(path = "/account/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
	String accountWithWork(@PathVariable String id, @RequestParam(required = false) String waitMs, @RequestParam(required = false) String work,
			@RequestParam(required = false) String bytes) {
		RequestWork asked = RequestWork.parse(work, bytes);
		return AccountAnswer.of(AccountJdbc.read(this.jdbc, id, waitMs), asked);
	}

}
