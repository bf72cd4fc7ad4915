package lab.gatling;

import java.time.Duration;

import io.gatling.javaapi.core.Assertion;
import io.gatling.javaapi.core.CheckBuilder;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.OpenInjectionStep;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import lab.layout.LatencyTarget;
import lab.layout.LoadShape;
import lab.layout.RequestMix;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.listFeeder;
import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.nothingFor;
import static io.gatling.javaapi.core.CoreDsl.randomSwitch;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.gatling.javaapi.core.CoreDsl.rampUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.core.CoreDsl.substring;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

/**
 * {@code GET /address/{delayMs}} against one service, in the load shape asked for. Runs alone:
 * {@code mvn -pl gatling gatling:test -Dgatling.simulationClass=lab.gatling.AddressSimulation -DbaseUrl=... -Dusers=...}
 */
public class AddressSimulation extends Simulation {

	// Parameters: every -D in one place.
	static final LabParameters p = LabParameters.fromSystemProperties();

	final LatencyRecorder recorder = new LatencyRecorder(p.outDir());

	long loadStartMillis;

	long loadEndMillis = Long.MAX_VALUE;

	/** When looping users stop: the window's end plus the unmeasured tail. */
	long stopMillis = Long.MAX_VALUE;

	// Protocol: no warm-up request (the runner warms the service), no caching (every request must reach it),
	// and for the open model one shared pool: arrivals are requests, not new clients.
	HttpProtocolBuilder protocol = shared(http.baseUrl(p.baseUrl()).acceptHeader("application/json").disableCaching().disableWarmUp());

	// Chain: one request with its checks; every send is counted and every outcome filed under its send second,
	// timed from just before the send to the first check of the complete response.
	ChainBuilder address = requests();

	/**
	 * The send counted and timed from here, the outcome filed after {@code request}: one request's timed part. It ends
	 * when the first check sees the complete response ({@link #answered()}), not when the next action runs: Gatling
	 * hands the session on after logging the response, on the user's event loop, and that hop took 0.2 ms on average
	 * and up to 2 ms at the 99th percentile under load, time after the service had answered.
	 */
	ChainBuilder timed(ChainBuilder request) {
		return exec(session -> session.remove("status").remove("request").remove(ANSWERED_NANOS)
			.set("sentMs", this.recorder.sent())
			.set("sentNanos", System.nanoTime()))
			.exec(request)
			.exec(this::record);
	}

	/** The session attribute the first check stores the moment it sees the complete response in. */
	static final String ANSWERED_NANOS = "answeredNanos";

	/**
	 * Every request's first check: stores when its complete response was checked (Gatling runs checks as the last
	 * byte has arrived). A request with no response runs no check, and its time ends when its outcome is filed.
	 */
	static CheckBuilder.Final answered() {
		return status().transform(status -> System.nanoTime()).saveAs(ANSWERED_NANOS);
	}

	/**
	 * The lab's own {@code GET /address/{delayMs}}, checked for its body; or, for a service of the user's own
	 * ({@code -DrequestsFile}), its requests by weight, each checked for the status it names.
	 */
	ChainBuilder requests() {
		String file = System.getProperty(RequestMix.PROPERTY);
		if (file == null) {
			return timed(exec(http("address").get(p.requestPath()).check(answered(), status().saveAs("status"), status().is(200), substring("\"street\"").exists())));
		}
		java.util.List<RequestMix.Request> mix;
		try {
			mix = RequestMix.read(java.nio.file.Path.of(file));
		}
		catch (java.io.IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
		java.nio.file.Path dir = java.nio.file.Path.of(file).toAbsolutePath().getParent();
		java.util.List<ChainBuilder> chains = java.util.stream.IntStream.range(0, mix.size()).mapToObj(i -> request(mix.get(i), i, dir)).toList();
		if (chains.size() == 1) {
			return chains.get(0);
		}
		double[] percents = RequestMix.percents(mix);
		io.gatling.javaapi.core.Choice.WithWeight[] choices = new io.gatling.javaapi.core.Choice.WithWeight[chains.size()];
		for (int i = 0; i < choices.length; i++) {
			choices[i] = new io.gatling.javaapi.core.Choice.WithWeight(percents[i], chains.get(i));
		}
		return randomSwitch().on(choices);
	}

	/**
	 * One request of the mix, its place in the mix kept in the session (its outcome is also filed under it): fed its
	 * next values before it is timed, its {@code {key}}s Gatling's {@code #{key}}, its think time after its outcome.
	 */
	ChainBuilder request(RequestMix.Request request, int index, java.nio.file.Path dir) {
		java.util.List<String> keys = java.util.List.of();
		io.gatling.javaapi.core.FeederBuilder<Object> feeder = null;
		if (request.feed() != null) {
			java.util.List<java.util.Map<String, Object>> records;
			try {
				records = RequestMix.readFeed(dir.resolve(request.feed()));
			}
			catch (java.io.IOException ex) {
				throw new java.io.UncheckedIOException(ex);
			}
			keys = java.util.List.copyOf(records.get(0).keySet());
			feeder = "random".equals(request.strategy()) ? listFeeder(records).random() : listFeeder(records).circular();
		}
		java.util.Map<String, String> headers = new java.util.LinkedHashMap<>();
		for (java.util.Map.Entry<String, String> header : request.headers().entrySet()) {
			headers.put(header.getKey(), named(header.getValue(), keys));
		}
		var builder = http(request.name()).httpRequest(request.method(), named(request.path(), keys)).headers(headers);
		if (request.body() != null) {
			builder = builder.body(StringBody(named(request.body(), keys)));
		}
		ChainBuilder chain = timed(exec(session -> session.set("request", index)).exec(builder.check(answered(), status().saveAs("status"), status().is(request.status()))));
		if (feeder != null) {
			chain = feed(feeder).exec(chain);
		}
		return (request.thinkMs() > 0) ? chain.pause(Duration.ofMillis(request.thinkMs())) : chain;
	}

	/** {@code text} with each {@code {key}} of the feed as Gatling's expression {@code #{key}}. */
	static String named(String text, java.util.List<String> keys) {
		String named = text;
		for (String key : keys) {
			named = named.replace("{" + key + "}", "#{" + key + "}");
		}
		return named;
	}

	// Scenario: closed users loop until the planned end, then finish the request they are in, so no response is cut
	// off and Gatling's count equals the histograms'; open arrivals make one request each.
	ScenarioBuilder users = (p.shape() == LoadShape.OPEN) ? scenario("open").exec(this.address)
			: scenario(p.shape().name().toLowerCase()).asLongAs(session -> System.currentTimeMillis() < this.stopMillis)
				.on(this.address);

	{
		// The latency target, when one is given, as Gatling's assertions: its report shows them, and it exits 2 when
		// one fails (over every request it made, ramp included). Any other non-zero exit means the injector broke; the
		// runner judges the service's steady window from the data, by the same target.
		setUp(population())
			.assertions(assertions())
			.protocols(this.protocol)
			// Only a safety net: the load ends by itself at the end of the hold, plus the last requests' time. A
			// request still open when it strikes shows as sent without an outcome (unanswered).
			.maxDuration(Duration.ofSeconds(p.shape().steadyAfterSeconds(p.rampSeconds()) + p.holdSeconds() + p.tailSeconds())
				.plusMillis(p.requestTimeoutMs())
				.plusSeconds(10));
	}

	/** The target as assertions over all requests: its percentile (or the maximum) and the failed requests' share. */
	java.util.List<Assertion> assertions() {
		LatencyTarget target = p.target();
		if (target == null) {
			return java.util.List.of();
		}
		int ms = (int) Math.round(target.maxMs());
		Assertion latency = (target.percentile() >= 100) ? global().responseTime().max().lte(ms)
				: global().responseTime().percentile(target.percentile()).lte(ms);
		return java.util.List.of(latency, global().failedRequests().percent().lte(target.maxErrorPercent()));
	}

	PopulationBuilder population() {
		return switch (p.shape()) {
			case CLOSED, SOAK -> this.users.injectOpen(ramp(p.level().amount(), p.rampSeconds()));
			case SPIKE -> {
				int base = Math.max(1, p.level().amount() / 10);
				yield this.users.injectOpen(ramp(base, p.rampSeconds()), nothingFor(Duration.ofSeconds(p.rampSeconds())),
						atOnceUsers(p.level().amount() - base));
			}
			case OPEN -> (p.rampSeconds() == 0) ? this.users.injectOpen(constantUsersPerSec(p.level().amount()).during(p.holdSeconds() + p.tailSeconds()))
					: this.users.injectOpen(rampUsersPerSec(1).to(p.level().amount()).during(p.rampSeconds()),
							constantUsersPerSec(p.level().amount()).during(p.holdSeconds() + p.tailSeconds()));
		};
	}

	static OpenInjectionStep ramp(int users, int seconds) {
		return (seconds == 0) ? atOnceUsers(users) : rampUsers(users).during(Duration.ofSeconds(seconds));
	}

	static HttpProtocolBuilder shared(HttpProtocolBuilder protocol) {
		return (p.shape() == LoadShape.OPEN) ? protocol.shareConnections() : protocol;
	}

	Session record(Session session) {
		long end = session.contains(ANSWERED_NANOS) ? session.getLong(ANSWERED_NANOS) : System.nanoTime();
		long micros = (end - session.getLong("sentNanos")) / 1_000;
		this.recorder.record(outcome(session, micros), session.getLong("sentMs"), micros, session.contains("request") ? session.getInt("request") : -1);
		// A failed request must not fail the looping user's next ones.
		return session.markAsSucceeded();
	}

	static LatencyRecorder.Kind outcome(Session session, long micros) {
		if (!session.isFailed()) {
			return LatencyRecorder.Kind.OK;
		}
		if (!session.contains("status")) {
			// No response at all: it either waited out the request timeout or the connection failed (refused, reset).
			return (micros >= p.requestTimeoutMs() * 1_000) ? LatencyRecorder.Kind.KO_TIMEOUT : LatencyRecorder.Kind.KO_CONNECTION;
		}
		int status = session.getInt("status");
		return (status >= 500) ? LatencyRecorder.Kind.KO_5XX : (status >= 400) ? LatencyRecorder.Kind.KO_4XX : LatencyRecorder.Kind.KO_CHECK;
	}

	@Override
	public void before() {
		this.loadStartMillis = System.currentTimeMillis();
		this.loadEndMillis = steadyStartMillis() + p.holdSeconds() * 1000L;
		this.stopMillis = this.loadEndMillis + p.tailSeconds() * 1000L;
		// The plan, before any request: the runner times what it does at the window's end by it.
		this.recorder.writePlan(this.loadStartMillis, steadyStartMillis(), this.loadEndMillis);
	}

	/** When the full load is on: after the ramp, and for a spike after the jump that follows it. */
	long steadyStartMillis() {
		return this.loadStartMillis + p.shape().steadyAfterSeconds(p.rampSeconds()) * 1000L;
	}

	@Override
	public void after() {
		this.recorder.writeWindow(this.loadStartMillis, steadyStartMillis(), this.loadEndMillis);
		this.recorder.close();
	}

}
