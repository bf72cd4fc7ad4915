package lab.analyse.search;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

import lab.json.Json;

/**
 * What the lab knows before a capacity search of the JVM-to-JVM spread of each variant's capacity: the prior of a run's
 * hierarchical intervals ({@link JvmLevels}). Variants differ: between five runs here the platform pool's crossing moved
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
