package lab.plan;

/**
 * The work each request asks of the service besides waiting, as the services' contract takes it:
 * {@code GET /address/{delayMs}?work=<rounds>&bytes=<responseBytes>} (each round builds, serialises and hashes a page
 * of 16 generated records, about 1.5 KB of JSON; the service's {@code lab.common.RequestWork} does it).
 *
 * @param rounds serialise-and-hash rounds per request; 0: pure waiting
 * @param responseBytes the answer's size; 0: the downstream's body
 */
public record Work(int rounds, int responseBytes) {

	/** The services' limits (lab.common.RequestWork): a request above them is a 400. */
	public static final int MAX_ROUNDS = 10_000;

	public static final int MAX_BYTES = 1 << 20;

	public static final Work NONE = new Work(0, 0);

	/** The name rows take when a run compares several: {@code work0}, {@code work40}. */
	public String label() {
		return "work" + this.rounds;
	}

	/** In words, for the plan and the report: "pure waiting", "40 rounds of work per request, 4,096-byte answers". */
	public String describe() {
		String work = (this.rounds == 0) ? "pure waiting" : this.rounds + " serialise-and-hash rounds per request";
		return (this.responseBytes == 0) ? work : work + ", " + String.format(java.util.Locale.ROOT, "%,d", this.responseBytes) + "-byte answers";
	}

}
