package lab.db;

import lab.common.RequestWork;
import tools.jackson.databind.json.JsonMapper;

/**
 * The answer's text, the same in all four services: the row as JSON ({@code {"id":42,"owner":"owner-42",
 * "balanceCents":332598}}), and, when the request asks for CPU work besides the database's wait
 * ({@code ?work=N&bytes=B}, the HTTP set's {@link RequestWork}), that work done after the read on the thread the
 * service's model runs the request's own code on, its answer holding the row under {@code address}.
 */
public final class AccountAnswer {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private AccountAnswer() {
	}

	/** The row's JSON, with {@code work} done on the calling thread: the row alone when it asks for none. */
	public static String of(Account account, RequestWork work) {
		return work.answer(JSON.writeValueAsString(account));
	}

}
