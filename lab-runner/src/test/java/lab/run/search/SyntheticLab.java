package lab.run.search;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import lab.analyse.judge.LevelResult.Verdict;
import lab.analyse.search.RoundProbe;
import lab.run.search.InterleavedSearch.Outcome;
import lab.run.search.InterleavedSearch.Reference;

/**
 * A synthetic lab of one run with known capacities and the noise measured here: each JVM an offset drawn afresh
 * (log-normal, SD drawn per run from 2-8%, as measured between runs), each round a drift of the host shared by every
 * entry (SD 2%), each probe's p99 a sampling wobble (SD 8%, as measured at one load over 15 s); every probe 35 s and
 * every start 90 s of the budget. Knees shaped like the lab's variants': flat, medium, sharp, and a cliff where the heap
 * runs out just past the knee.
 */
final class SyntheticLab implements InterleavedSearch.Prober {

	enum Shape {
		FLAT(0.45), MEDIUM(1.2), SHARP(3.0), CLIFF(1.0);

		final double elasticity;

		Shape(double elasticity) {
			this.elasticity = elasticity;
		}
	}

	record Truth(String name, double capacity, Shape shape) {
	}

	/**
	 * The noise of a synthetic host. {@link #MEASURED}: every entry's JVMs spread alike, by an SD drawn per run from
	 * 2-8%; each probe's p99 wobbles 8%; the host drifts 2% a round, which the CPU reference does not see.
	 *
	 * @param jvmSd each entry's own JVM-to-JVM SD of a log capacity (empty: one SD for all, drawn per run from 2-8%)
	 * @param shiftSd the SD of a run-wide shift of one entry, drawn afresh per run (every JVM of that run alike): what
	 * one run cannot see of another
	 * @param wobbleLow the p99 wobble's SD, drawn per run between this ...
	 * @param wobbleHigh ... and this
	 * @param slowRounds the share of rounds in which the host runs slower (a neighbour on the core), by {@code slowBy},
	 * which the CPU reference times
	 * @param slowBy how much slower, as a log factor
	 */
	record World(Map<String, Double> jvmSd, double shiftSd, double wobbleLow, double wobbleHigh, double slowRounds, double slowBy) {

		static final World MEASURED = new World(Map.of(), 0, 0.08, 0.08, 0, 0);

		double jvmSd(String entry, double drawn) {
			return this.jvmSd.getOrDefault(entry, drawn);
		}

	}

	static final double PROBE_SECONDS = 35;

	static final double START_SECONDS = 90;

	final List<Truth> truths;

	final Random random;

	final double jvmSd;

	final double budgetSeconds;

	final Map<String, Double> offsets = new LinkedHashMap<>();

	final Map<Integer, Double> drift = new LinkedHashMap<>();

	/** How much slower the host runs in the current round ({@link World#slowRounds}), drawn at the reference before it. */
	private double slow;

	/** Between a round's first reference and its last. */
	private boolean inRound;

	final World world;

	/** This run's p99 wobble (an SD of its log). */
	final double wobble;

	/** The entry this run shifts as a whole ({@link World#shiftSd}), and by how much. */
	final String shifted;

	final double shift;

	double elapsed;

	/** A run's lab: every entry started once before the search (its starts spent from the budget). */
	SyntheticLab(List<Truth> truths, long seed, double budgetSeconds) {
		this(truths, seed, budgetSeconds, World.MEASURED);
	}

	/** A run's lab on a host of {@code world}'s noise: every entry started once before the search. */
	SyntheticLab(List<Truth> truths, long seed, double budgetSeconds, World world) {
		this(truths, new Random(seed), budgetSeconds, world);
		this.elapsed = truths.size() * START_SECONDS;
	}

	private SyntheticLab(List<Truth> truths, Random random, double budgetSeconds, World world) {
		this.truths = List.copyOf(truths);
		this.random = random;
		this.world = world;
		this.jvmSd = 0.02 + 0.06 * this.random.nextDouble();
		this.budgetSeconds = budgetSeconds;
		// Drawn only where the world asks: the measured world's runs draw what they always drew.
		this.wobble = (world.wobbleHigh() > world.wobbleLow()) ? world.wobbleLow() + (world.wobbleHigh() - world.wobbleLow()) * this.random.nextDouble()
				: world.wobbleLow();
		this.shifted = (world.shiftSd() > 0) ? truths.get(this.random.nextInt(truths.size())).name() : null;
		this.shift = (world.shiftSd() > 0) ? world.shiftSd() * this.random.nextGaussian() : 0;
		truths.forEach(t -> this.offsets.put(t.name(), jvmOffset(t.name())));
	}

	/** The same host and JVMs searched again (a later step of a study): a budget of its own, the host's drift afresh. */
	SyntheticLab again(double budgetSeconds) {
		SyntheticLab next = new SyntheticLab(this.truths, this.random, budgetSeconds, this.world);
		next.offsets.putAll(this.offsets);
		return next;
	}

	/** A fresh JVM's offset of {@code entry}'s log capacity. */
	private double jvmOffset(String entry) {
		return this.world.jvmSd(entry, this.jvmSd) * this.random.nextGaussian();
	}

	/** The log factor of {@code round}'s host: its drift, less its slowdown when it is a slow round. */
	private double host(int round) {
		return this.drift.computeIfAbsent(round, r -> 0.02 * this.random.nextGaussian()) - this.slow;
	}

	Truth truth(String entry) {
		return this.truths.stream().filter(t -> t.name().equals(entry)).findFirst().orElseThrow();
	}

	/** Every probe from now on INVALID (the harness the limit): no entry's capacity can be measured. */
	boolean invalid;

	/** Probes counted, for a test that asserts some ran. */
	int probes;

	@Override
	public Outcome probe(String entry, int load, int round, int position, int of) {
		this.elapsed += PROBE_SECONDS;
		this.probes++;
		if (this.invalid) {
			return new Outcome(new RoundProbe(round, position, entry, load, Verdict.INVALID, null, null, "injector cores 99% busy > 90%", entry + "/" + load),
					false);
		}
		Truth t = truth(entry);
		double knee = t.capacity() * Math.exp(this.offsets.get(entry) + host(round) + (entry.equals(this.shifted) ? this.shift : 0));
		if (t.shape() == Shape.CLIFF && load > 1.08 * knee) {
			return new Outcome(new RoundProbe(round, position, entry, load, Verdict.FAILED, false, null, "OutOfMemoryError", entry + "/" + load), true);
		}
		double p99 = Math.max(520, 1000 * Math.pow(load / knee, t.shape().elasticity)) * Math.exp(this.wobble * this.random.nextGaussian());
		return new Outcome(new RoundProbe(round, position, entry, load, Verdict.OK, p99 <= 1000, p99, "", entry + "/" + load), false);
	}

	@Override
	public boolean restart(String entry, int jvm, boolean planned) {
		this.elapsed += START_SECONDS;
		this.offsets.put(entry, jvmOffset(entry));
		return true;
	}

	@Override
	public Reference reference() {
		// Timed before a round's probes and after them: it sees a slow round's host, not the drift.
		if (!this.inRound && this.world.slowRounds() > 0) {
			this.slow = (this.random.nextDouble() < this.world.slowRounds()) ? this.world.slowBy() : 0;
		}
		this.inRound = !this.inRound;
		return new Reference(100 * Math.exp(this.slow), 0, 1);
	}

	@Override
	public void progress(InterleavedSearch search) {
	}

	@Override
	public void say(String line) {
	}

	@Override
	public double secondsLeft() {
		return this.budgetSeconds - this.elapsed;
	}

	@Override
	public List<Double> startSeconds() {
		return this.truths.stream().map(t -> START_SECONDS).toList();
	}

}
