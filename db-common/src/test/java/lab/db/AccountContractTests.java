package lab.db;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The database set's contract, over real sockets against a real PostgreSQL ({@link TestPostgres}): every app-db-*
 * service's tests extend this and name their pool's meter. The same body for the same id in all four; the wait
 * spent inside the database (a backend in {@code pg_sleep}, seen in pg_stat_activity); the pool's size
 * ({@code lab.db.pool-size}, {@value #POOL} here) bounding the connections and the requests in the database at once;
 * the pool's meters at /actuator/prometheus; bad parameters a 400 problem detail.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "lab.db.pool-size=" + AccountContractTests.POOL)
public abstract class AccountContractTests {

	/** The pool size the tests set: small, so that a handful of requests fill it. */
	static final int POOL = 3;

	protected static TestPostgres postgres;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@LocalServerPort
	protected int port;

	/** The module under test: its application name, which its connections carry into pg_stat_activity. */
	protected abstract String module();

	/** A line of /actuator/prometheus stating the pool's maximum size, whatever its labels: {@code hikaricp_connections_max}, ... */
	protected abstract String poolMaxMeter();

	/** Another of the pool's meters: the connections in use, or the requests waiting for one. */
	protected abstract String poolInUseMeter();

	@BeforeAll
	static void startPostgres() throws Exception {
		postgres = TestPostgres.start();
	}

	@AfterAll
	static void stopPostgres() {
		if (postgres != null) {
			postgres.close();
		}
	}

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		registry.add("lab.db.port", () -> postgres.port());
	}

	@Test
	void answersTheRowItReadsInTheSetsOneShape() throws Exception {
		for (long id : new long[] { 1, 42, AccountQuery.ROWS }) {
			HttpResponse<String> answer = get("/account/" + id + "?waitMs=0");
			assertThat(answer.statusCode()).isEqualTo(200);
			assertThat(answer.headers().firstValue("content-type").orElse("")).startsWith("application/json");
			Account expected = Account.expected(id);
			assertThat(answer.body()).isEqualTo("{\"id\":" + id + ",\"owner\":\"" + expected.owner() + "\",\"balanceCents\":" + expected.balanceCents() + "}");
		}
		assertThat(get("/account/42").statusCode()).as("waitMs defaults to " + AccountQuery.DEFAULT_WAIT_MS).isEqualTo(200);
	}

	@Test
	void theWaitIsSpentInsideTheDatabase() throws Exception {
		AtomicBoolean sleeping = new AtomicBoolean();
		long start = System.nanoTime();
		CompletableFuture<HttpResponse<String>> answer = this.http.sendAsync(request("/account/7?waitMs=1000"), HttpResponse.BodyHandlers.ofString());
		try (Connection connection = postgres.connect(); PreparedStatement query = connection.prepareStatement(
				"SELECT count(*) FROM pg_stat_activity WHERE application_name = ? AND state = 'active' AND wait_event = 'PgSleep' AND query LIKE '%pg_sleep%'")) {
			query.setString(1, module());
			while (!answer.isDone() && !sleeping.get()) {
				try (ResultSet rows = query.executeQuery()) {
					rows.next();
					sleeping.set(rows.getInt(1) == 1);
				}
				Thread.sleep(50);
			}
		}
		HttpResponse<String> done = answer.get();
		double seconds = (System.nanoTime() - start) / 1e9;
		assertThat(done.statusCode()).isEqualTo(200);
		assertThat(sleeping).as("a backend of " + module() + " was seen in pg_sleep while the request waited").isTrue();
		assertThat(seconds).as("the answer came after the database's wait").isGreaterThanOrEqualTo(1.0);
	}

	@Test
	void thePoolSizeBoundsTheConnectionsAndTheRequestsInTheDatabase() throws Exception {
		int requests = 3 * POOL;
		int waitMs = 600;
		AtomicInteger most = new AtomicInteger();
		AtomicInteger connections = new AtomicInteger();
		long start = System.nanoTime();
		List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
		for (int i = 1; i <= requests; i++) {
			answers.add(this.http.sendAsync(request("/account/" + i + "?waitMs=" + waitMs), HttpResponse.BodyHandlers.ofString()));
		}
		try (Connection connection = postgres.connect(); PreparedStatement query = connection.prepareStatement(
				"SELECT count(*) FILTER (WHERE wait_event = 'PgSleep'), count(*) FROM pg_stat_activity WHERE application_name = ?")) {
			query.setString(1, module());
			while (!answers.stream().allMatch(CompletableFuture::isDone)) {
				try (ResultSet rows = query.executeQuery()) {
					rows.next();
					most.accumulateAndGet(rows.getInt(1), Math::max);
					connections.accumulateAndGet(rows.getInt(2), Math::max);
				}
				Thread.sleep(20);
			}
		}
		double seconds = (System.nanoTime() - start) / 1e9;
		for (CompletableFuture<HttpResponse<String>> answer : answers) {
			assertThat(answer.get().statusCode()).isEqualTo(200);
		}
		assertThat(connections.get()).as("connections of " + module() + " open at once").isEqualTo(POOL);
		assertThat(most.get()).as("requests of " + module() + " waiting in the database at once").isEqualTo(POOL);
		// Nine requests through three connections: three waves of the wait, not one.
		assertThat(seconds).as("nine requests of " + waitMs + " ms through " + POOL + " connections").isGreaterThanOrEqualTo(3 * waitMs / 1000.0 * 0.95);
	}

	@Test
	void thePoolsMetersAreExposed() throws Exception {
		String metrics = get("/actuator/prometheus").body();
		assertThat(metrics).as(poolMaxMeter() + " at " + POOL).containsPattern(Pattern.compile("(?m)^" + poolMaxMeter() + "\\{[^}]*\\} " + POOL + "\\.0$"));
		assertThat(metrics).as(poolInUseMeter()).containsPattern(Pattern.compile("(?m)^" + poolInUseMeter() + "\\{[^}]*\\} [0-9.]+$"));
	}

	@Test
	void theRequestsCpuWorkRunsAfterTheReadAndItsAnswerHoldsTheRow() throws Exception {
		// The HTTP set's work (lab.common.RequestWork), the same answer in all four: the row under "address", the last
		// round's digest, as many rounds as asked; the digest depends on the row, so the work cannot run before the read.
		HttpResponse<String> answer = get("/account/42?waitMs=0&work=3");
		assertThat(answer.statusCode()).isEqualTo(200);
		Account expected = Account.expected(42);
		assertThat(answer.body()).startsWith("{\"address\":{\"id\":42,\"owner\":\"" + expected.owner() + "\",\"balanceCents\":" + expected.balanceCents() + "}")
			.contains("\"rounds\":3").containsPattern("\"digest\":\"[0-9a-f]{64}\"");
		assertThat(get("/account/42?waitMs=0&work=3").body()).as("the same row, the same digest").isEqualTo(answer.body());
		assertThat(get("/account/43?waitMs=0&work=3").body()).as("another row, another digest").isNotEqualTo(answer.body());
		assertThat(get("/account/42?waitMs=0&work=0").body()).as("no work: the row alone").startsWith("{\"id\":42,");
	}

	@Test
	void badParametersAreProblemDetailsAndAMissingRowIsNotFound() throws Exception {
		for (String path : List.of("/account/0", "/account/x", "/account/1?waitMs=-1", "/account/1?waitMs=10001", "/account/1?waitMs=ten",
				"/account/1?work=-1", "/account/1?work=many", "/account/1?bytes=2000000")) {
			HttpResponse<String> answer = get(path);
			assertThat(answer.statusCode()).as(path).isEqualTo(400);
			assertThat(answer.headers().firstValue("content-type").orElse("")).as(path).startsWith("application/problem+json");
			assertThat(answer.body()).as(path).contains("\"error\":\"bad_parameter\"");
		}
		HttpResponse<String> missing = get("/account/" + (AccountQuery.ROWS + 1) + "?waitMs=0");
		assertThat(missing.statusCode()).isEqualTo(404);
		assertThat(missing.body()).contains(AccountQuery.notFound(AccountQuery.ROWS + 1));
	}

	private HttpRequest request(String path) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path)).timeout(Duration.ofSeconds(30)).build();
	}

	protected HttpResponse<String> get(String path) throws Exception {
		return this.http.send(request(path), HttpResponse.BodyHandlers.ofString());
	}

}
