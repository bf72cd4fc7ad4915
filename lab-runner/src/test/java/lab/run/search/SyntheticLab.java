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

	static final double PROBE_SECONDS = 35;

	static final double START_SECONDS = 90;

	final List<Truth> truths;

	final Random random;

	final double jvmSd;

	final double budgetSeconds;

	final Map<String, Double> offsets = new LinkedHashMap<>();

	final Map<Integer, Double> drift = new LinkedHashMap<>();

	double elapsed;

	/** A run's lab: every entry started once before the search (its starts spent from the budget). */
	SyntheticLab(List<Truth> truths, long seed, double budgetSeconds) {
		this(truths, new Random(seed), budgetSeconds);
		this.elapsed = truths.size() * START_SECONDS;
	}

	private SyntheticLab(List<Truth> truths, Random random, double budgetSeconds) {
		this.truths = List.copyOf(truths);
		this.random = random;
		this.jvmSd = 0.02 + 0.06 * this.random.nextDouble();
		this.budgetSeconds = budgetSeconds;
		truths.forEach(t -> this.offsets.put(t.name(), this.jvmSd * this.random.nextGaussian()));
	}

	/** The same host and JVMs searched again (a later step of a study): a budget of its own, the host's drift afresh. */
	SyntheticLab again(double budgetSeconds) {
		SyntheticLab next = new SyntheticLab(this.truths, this.random, budgetSeconds);
		next.offsets.putAll(this.offsets);
		return next;
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
		double knee = t.capacity() * Math.exp(this.offsets.get(entry) + this.drift.computeIfAbsent(round, r -> 0.02 * this.random.nextGaussian()));
		if (t.shape() == Shape.CLIFF && load > 1.08 * knee) {
			return new Outcome(new RoundProbe(round, position, entry, load, Verdict.FAILED, false, null, "OutOfMemoryError", entry + "/" + load), true);
		}
		double p99 = Math.max(520, 1000 * Math.pow(load / knee, t.shape().elasticity)) * Math.exp(0.08 * this.random.nextGaussian());
		return new Outcome(new RoundProbe(round, position, entry, load, Verdict.OK, p99 <= 1000, p99, "", entry + "/" + load), false);
	}

	@Override
	public boolean restart(String entry, int jvm, boolean planned) {
		this.elapsed += START_SECONDS;
		this.offsets.put(entry, this.jvmSd * this.random.nextGaussian());
		return true;
	}

	@Override
	public Reference reference() {
		return new Reference(100, 0, 1);
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
