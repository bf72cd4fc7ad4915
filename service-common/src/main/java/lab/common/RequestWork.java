package lab.common;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a request asks of the service besides waiting: {@code GET /address/{delayMs}?work=N&bytes=B}. Real work, the
 * way a service that answers with data does it, not a sleep or an empty spin: each of the {@code N} rounds builds a
 * page of 16 address records from the previous round's digest, serialises it to JSON with Jackson and hashes the JSON
 * with SHA-256 (so no round can be skipped or hoisted by the JIT); then the answer, the downstream's address with the
 * last digest and as many generated records as make it {@code B} bytes long, is serialised too. Without either
 * parameter the answer is the downstream's body unchanged, as before the parameters existed.
 *
 * <p>
 * Every variant calls {@link #answer} with the downstream's body on the thread its model runs the request's own code
 * on, since that is what differs: WebFlux on the event loop that received the downstream's answer, WebFlux+Loom on
 * the request's virtual thread, Tomcat+Loom and Jetty+Loom on the request's virtual thread (on a carrier), Tomcat
 * platform on the pool thread that holds the request.
 *
 * @param rounds serialise-and-hash rounds (0 to {@link #MAX_ROUNDS})
 * @param bytes the answer's size in bytes (0: the downstream's body; else at least the smallest answer, about 150 bytes)
 */
public record RequestWork(int rounds, int bytes) {

	/** The largest number of rounds accepted: a few hundred ms of CPU, far above every scenario. */
	public static final int MAX_ROUNDS = 10_000;

	/** The largest answer accepted: 1 MiB. */
	public static final int MAX_BYTES = 1 << 20;

	/** Records per round's page: about 1.5 KB of JSON. */
	static final int RECORDS_PER_ROUND = 16;

	public static final RequestWork NONE = new RequestWork(0, 0);

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final String[] STREETS = { "Loom", "Carrier", "Reactor", "Netty", "Tomcat", "Jetty", "Mono", "Flux", "Virtual",
			"Platform", "Scheduler", "Continuation", "Park", "Yield", "Monitor", "Pool" };

	private static final String[] CITIES = { "Lisbon", "Oslo", "Cork", "Turin", "Ghent", "Porto", "Graz", "Bergen" };

	/** The parameters as the query gives them (null: absent), each checked: a bad one is a 400 naming it. */
	public static RequestWork parse(String rounds, String bytes) {
		return new RequestWork(integer("work", rounds, MAX_ROUNDS, "rounds"), integer("bytes", bytes, MAX_BYTES, "bytes"));
	}

	/** Whether the request asks for nothing beyond the downstream's answer. */
	public boolean none() {
		return this.rounds == 0 && this.bytes == 0;
	}

	/**
	 * Does the work on the calling thread and returns the answer: the downstream's body when there is none to do.
	 *
	 * @param downstreamBody the downstream's JSON answer
	 */
	public String answer(String downstreamBody) {
		if (none()) {
			return downstreamBody;
		}
		byte[] digest = sha256(downstreamBody.getBytes(StandardCharsets.UTF_8));
		for (int round = 0; round < this.rounds; round++) {
			Page page = new Page(round, records(digest, round, RECORDS_PER_ROUND));
			digest = sha256(JSON.writeValueAsBytes(page));
		}
		String hex = HexFormat.of().formatHex(digest);
		Answer bare = new Answer(downstreamBody, hex, this.rounds, List.of(), null);
		int size = JSON.writeValueAsBytes(bare).length;
		if (this.bytes <= size) {
			return JSON.writeValueAsString(bare);
		}
		// Fill with records, then pad to the exact size ("pad" adds 9 bytes of its own: ,"pad":"").
		int recordSize = JSON.writeValueAsBytes(records(digest, 0, 1).get(0)).length + 1;
		List<Address> records = records(digest, 0, Math.max(0, (this.bytes - size - 9) / recordSize));
		String json = JSON.writeValueAsString(new Answer(downstreamBody, hex, this.rounds, records, null));
		while (length(json) + 9 > this.bytes && !records.isEmpty()) {
			records = records.subList(0, records.size() - 1);
			json = JSON.writeValueAsString(new Answer(downstreamBody, hex, this.rounds, records, null));
		}
		int missing = this.bytes - length(json) - 9;
		return (missing < 0) ? json : JSON.writeValueAsString(new Answer(downstreamBody, hex, this.rounds, records, "x".repeat(missing)));
	}

	private static int length(String json) {
		return json.getBytes(StandardCharsets.UTF_8).length;
	}

	/** {@code count} address records generated from {@code seed}: every field depends on it. */
	static List<Address> records(byte[] seed, int round, int count) {
		List<Address> records = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			int a = seed[(i + round) % seed.length] & 0xff;
			int b = seed[(3 * i + 7 + round) % seed.length] & 0xff;
			records.add(new Address(round * 1_000 + i, (a * 7 + b) % 999 + 1 + " " + STREETS[a % STREETS.length] + " Street",
					CITIES[b % CITIES.length], String.format(java.util.Locale.ROOT, "%05d", (a << 8 | b) % 100_000), a * 31L + b));
		}
		return records;
	}

	private static byte[] sha256(byte[] content) {
		try {
			return MessageDigest.getInstance("SHA-256").digest(content);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every JDK has SHA-256", ex);
		}
	}

	private static int integer(String name, String raw, int max, String unit) {
		if (raw == null || raw.isEmpty()) {
			return 0;
		}
		int value;
		try {
			value = Integer.parseInt(raw);
		}
		catch (NumberFormatException ex) {
			throw new BadParameterException(name + " must be an integer number of " + unit + ", got '" + DelayMs.clip(raw) + "'");
		}
		if (value < 0 || value > max) {
			throw new BadParameterException(name + " must be between 0 and " + max + ", got " + value);
		}
		return value;
	}

	/** One generated record. */
	record Address(int id, String street, String city, String zip, long checksum) {
	}

	/** One round's page of records. */
	record Page(int round, List<Address> records) {
	}

	/** The answer: the downstream's address as it came, the last round's digest, the records and the padding. */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	record Answer(@JsonRawValue String address, String digest, int rounds, List<Address> records, String pad) {
	}

}
