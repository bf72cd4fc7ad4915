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
 * @param jvmSd each shipped variant's SD of a log capacity between JVMs
 * @param jvmTerm false only for a negative control that leaves the JVM level out (rounds alone)
 */
public record VariancePrior(String about, int df, double otherSd, Map<String, Double> jvmSd, boolean jvmTerm) {

	/** The lab's prior until it shipped per-variant spreads: 7.5% for every variant, worth 2 degrees of freedom. */
	public static final VariancePrior UNIFORM = new VariancePrior("one spread for all: 7.5%", 2, 0.075, Map.of(), true);

	/** The prior the lab ships ({@code capacity-variance.json}). */
	public static final VariancePrior SHIPPED = read("/capacity-variance.json");

	public VariancePrior {
		jvmSd = (jvmSd == null) ? Map.of() : Map.copyOf(jvmSd);
		if (df < 1 || !(otherSd > 0)) {
			throw new IllegalArgumentException("a variance prior needs df >= 1 and otherSd > 0, got df " + df + ", otherSd " + otherSd);
		}
	}

	/** The same prior, {@code sd} for every variant (a control of the coverage test). */
	public VariancePrior everyVariant(double sd) {
		return new VariancePrior("every variant " + sd, this.df, sd, Map.of(), this.jvmTerm);
	}

	/** The same prior without the JVM level: a negative control that must fall short. */
	public VariancePrior withoutJvmTerm() {
		return new VariancePrior(this.about + ", no JVM level", this.df, this.otherSd, this.jvmSd, false);
	}

	/**
	 * This prior updated by a host's own runs: for each variant with crossings of several runs, its spread between JVMs
	 * becomes the pooled one, the shipped figure at its degrees of freedom and the host's (√2 × the SD of its log
	 * crossings, as the shipped figures were made) at its runs less one; the about says which.
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
			double hostVariance = 2 * Arrays.stream(logs).map(x -> (x - mean) * (x - mean)).sum() / (n - 1);
			double pooled = (this.df * variance(entry) + (n - 1) * hostVariance) / (this.df + n - 1);
			sd.put(entry, Math.sqrt(pooled));
			said.add(String.format(Locale.ROOT, "%s %.1f%% (%d runs here)", entry, 100 * Math.sqrt(pooled), n));
		});
		return said.isEmpty() ? this : new VariancePrior(this.about + "; updated by this host's runs: " + String.join(", ", said), this.df, this.otherSd, sd,
				this.jvmTerm);
	}

	/**
	 * The prior variance of {@code entry}'s log capacity between JVMs: its variant's by its label (an arm's or an A/A
	 * twin's label, "app-webflux.tuned", "app-webflux.aa", is its variant's), else {@code otherSd}'s.
	 */
	public double variance(String entry) {
		Double sd = this.jvmSd.get(entry);
		if (sd == null && entry.indexOf('.') > 0) {
			sd = this.jvmSd.get(entry.substring(0, entry.indexOf('.')));
		}
		double s = (sd != null) ? sd : this.otherSd;
		return s * s;
	}

	/** The shipped file's fields. */
	private record File(String about, int df, double otherSd, Map<String, Double> jvmSd) {
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
			return new VariancePrior(read.about(), read.df(), read.otherSd(), read.jvmSd(), true);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
