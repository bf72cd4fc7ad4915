package lab.plan;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import lab.json.Json;

/**
 * What the lab knows before a capacity search of the JVM-to-JVM spread of each variant's capacity: the prior of a run's
 * hierarchical intervals (the analysis's JvmLevels). Variants differ: between five runs here the platform pool's crossing moved
 * 0.9%, WebFlux with virtual threads' 17.5%, so one spread for all (7.5%, the lab's prior until it shipped these) was
 * too wide for one and too narrow for the other. A run's own JVMs rescale every variant's prior alike, weighed as
 * {@code df} degrees of freedom against the prior's.
 *
 * @param about where the figures come from, as the shipped file says
 * @param df how many degrees of freedom the prior weighs as
 * @param otherSd the SD of a log capacity between JVMs for a service the lab does not ship
 * @param jvmSd each shipped variant's SD of a log capacity between JVMs (the shipped file's derived from its spread between
 * runs: {@link #jvmVariance})
 * @param runSd the SD of a log capacity between runs beyond its JVMs (every JVM of one run shifted alike) for a service
 * the lab does not ship: no run's own JVMs can show it, so every capacity's variance holds it whole and a ratio's its two
 * variants' (absent from a record written before the lab had it: 0, so that its report re-renders as it was)
 * @param runSds each shipped variant's run-level SD (shrunk toward the pooled one: each rests on a few runs)
 * @param jvmTerm false only for a negative control that leaves the JVM level out (rounds alone)
 */
public record VariancePrior(String about, int df, double otherSd, Map<String, Double> jvmSd, Double runSd, Map<String, Double> runSds, boolean jvmTerm) {

	/** The lab's prior until it shipped per-variant spreads: 7.5% for every variant, worth 2 degrees of freedom, no run level. */
	public static final VariancePrior UNIFORM = new VariancePrior("one spread for all: 7.5%", 2, 0.075, Map.of(), 0.0, Map.of(), true);

	/** The prior the lab ships ({@code capacity-variance.json}). */
	public static final VariancePrior SHIPPED = read("/capacity-variance.json");

	public VariancePrior {
		jvmSd = (jvmSd == null) ? Map.of() : Map.copyOf(jvmSd);
		runSd = (runSd == null) ? 0.0 : runSd;
		runSds = (runSds == null) ? Map.of() : Map.copyOf(runSds);
		if (df < 1 || !(otherSd > 0) || !(runSd >= 0)) {
			throw new IllegalArgumentException("a variance prior needs df >= 1, otherSd > 0 and runSd >= 0, got df " + df + ", otherSd " + otherSd + ", runSd " + runSd);
		}
	}

	/** The same prior, {@code sd} for every variant (a control of the coverage test). */
	public VariancePrior everyVariant(double sd) {
		return new VariancePrior("every variant " + sd, this.df, sd, Map.of(), this.runSd, this.runSds, this.jvmTerm);
	}

	/** The same prior without the JVM level: a negative control that must fall short. */
	public VariancePrior withoutJvmTerm() {
		return new VariancePrior(this.about + ", no JVM level", this.df, this.otherSd, this.jvmSd, this.runSd, this.runSds, false);
	}

	/**
	 * This prior updated by a host's own runs: for each variant with crossings of several runs, its spread between JVMs
	 * becomes the pooled one, the shipped figure at its degrees of freedom and the host's (from the SD of its log
	 * crossings as the shipped figures were made: {@link #jvmVariance}) at its runs less one; the about says which.
	 *
	 * @param runs each variant's crossings on the host, one per run (users)
	 */
	public VariancePrior withRuns(Map<String, List<Double>> runs) {
		Map<String, Double> sd = new LinkedHashMap<>(this.jvmSd);
		List<String> said = new ArrayList<>();
		runs.forEach((entry, crossings) -> {
			double[] logs = crossings.stream().mapToDouble(Math::log).toArray();
			int n = logs.length;
			if (n < 2) {
				return;
			}
			double mean = Arrays.stream(logs).average().orElseThrow();
			double hostVariance = jvmVariance(Arrays.stream(logs).map(x -> (x - mean) * (x - mean)).sum() / (n - 1), runVariance(entry));
			double pooled = (this.df * variance(entry) + (n - 1) * hostVariance) / (this.df + n - 1);
			sd.put(entry, Math.sqrt(pooled));
			said.add(String.format(Locale.ROOT, "%s %.1f%% (%d runs here)", entry, 100 * Math.sqrt(pooled), n));
		});
		return said.isEmpty() ? this : new VariancePrior(this.about + "; updated by this host's runs: " + String.join(", ", said), this.df, this.otherSd, sd,
				this.runSd, this.runSds, this.jvmTerm);
	}

	/** How many fresh JVMs a capacity run's crossing of one variant averaged when the shipped spreads were measured. */
	static final int JVMS_PER_RUN = 2;

	/**
	 * A variant's variance of a log capacity between JVMs, from the variance of its crossing between whole runs: a run's
	 * crossing averages {@value #JVMS_PER_RUN} JVMs and carries the run level whole, so the JVM level is
	 * {@value #JVMS_PER_RUN} × (between runs less the run level), none where the run level explains it all. Before the
	 * lab had a run level it was {@value #JVMS_PER_RUN} × between runs, and a run's interval counted the run level twice:
	 * once inside the JVM level, once added whole.
	 */
	static double jvmVariance(double betweenRuns, double runVariance) {
		return JVMS_PER_RUN * Math.max(0, betweenRuns - runVariance);
	}

	/**
	 * The prior variance of {@code entry}'s log capacity between JVMs: its variant's by its label (an arm's or an A/A
	 * twin's label, "app-webflux.tuned", "app-webflux.aa", is its variant's), else {@code otherSd}'s.
	 */
	public double variance(String entry) {
		double s = sdOf(this.jvmSd, entry, this.otherSd);
		return s * s;
	}

	/** The same prior with no run level (the lab's before it had one; a control of the coverage test). */
	public VariancePrior withoutRunLevel() {
		return new VariancePrior(this.about + ", no run level", this.df, this.otherSd, this.jvmSd, 0.0, Map.of(), this.jvmTerm);
	}

	/** The prior variance of {@code entry}'s log capacity between runs beyond its JVMs: its variant's, else {@code runSd}'s. */
	public double runVariance(String entry) {
		double s = sdOf(this.runSds, entry, this.runSd);
		return s * s;
	}

	/**
	 * The run level of the ratio of {@code a} to {@code b}: their two variants' run variances summed, none when one is
	 * {@code twin} (may be null), the A/A twin of the other: one variant in one run, which a shift of the whole run moves
	 * alike.
	 */
	public double ratioRunVariance(String a, String b, String twin) {
		boolean aa = twin != null && (a.equals(twin) || b.equals(twin)) && Variant.moduleOf(a).equals(Variant.moduleOf(b));
		return aa ? 0 : runVariance(a) + runVariance(b);
	}

	/** {@code entry}'s figure in {@code sds}, by its label (an arm's or a twin's label, "app-webflux.aa", is its variant's), else {@code other}. */
	private static double sdOf(Map<String, Double> sds, String entry, double other) {
		Double sd = sds.get(entry);
		if (sd == null && entry.indexOf('.') > 0) {
			sd = sds.get(Variant.moduleOf(entry));
		}
		return (sd != null) ? sd : other;
	}

	/**
	 * The shipped file's fields: each variant's SD of its log crossing between whole runs ({@code crossingSd}), from which
	 * its JVM level is derived ({@link #jvmVariance}), and the run level.
	 */
	private record File(String about, int df, double otherSd, Map<String, Double> crossingSd, Double runSd, Map<String, Double> runSds) {
	}

	/**
	 * A variant whose JVMs spread less than this keeps one JVM through a search: a fresh one costs a start (2-2.5 minutes
	 * here) and narrows nothing its probes would not (the platform pool's: 1.3%, where its rounds wobble more).
	 */
	public static final double QUIET_SD = 0.03;

	/** Whether {@code entry}'s JVMs spread less than {@link #QUIET_SD}: a second JVM would not pay for its start. */
	public boolean quiet(String entry) {
		return this.jvmTerm && variance(entry) < QUIET_SD * QUIET_SD;
	}

	private static VariancePrior read(String resource) {
		try (InputStream in = VariancePrior.class.getResourceAsStream(resource)) {
			if (in == null) {
				throw new IllegalStateException(resource + " is missing from the lab's jar: rebuild it (./lab rebuilds when sources are newer)");
			}
			File read = Json.MAPPER.readValue(in, File.class);
			VariancePrior runLevel = new VariancePrior(read.about(), read.df(), read.otherSd(), Map.of(), read.runSd(), read.runSds(), true);
			Map<String, Double> jvmSd = new LinkedHashMap<>();
			read.crossingSd().forEach((variant, sd) -> jvmSd.put(variant, Math.sqrt(jvmVariance(sd * sd, runLevel.runVariance(variant)))));
			return new VariancePrior(read.about(), read.df(), read.otherSd(), jvmSd, read.runSd(), read.runSds(), true);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
