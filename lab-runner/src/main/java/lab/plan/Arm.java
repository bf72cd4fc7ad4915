package lab.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * One way a variant runs in a run that compares several side by side: a tuning (with its observe mode) on a JDK,
 * under a work per request. Its variant's rows are labelled {@code <module>.<tuning>-<jdk>-<work>}: the module alone
 * under {@code default} on the run's only JDK and work, {@code app-webflux.jdk21} or {@code app-webflux.tuned-jdk25}
 * when the run has several JDKs, {@code app-webflux.work40} when it has several works.
 *
 * @param tuning the tuning and observe mode
 * @param jdk the JDK the service runs on
 * @param labelled whether the run compares JDKs, so rows name theirs
 * @param work what each request asks of the service besides waiting
 * @param workLabelled whether the run compares works, so rows name theirs
 * @param aot how the service starts with respect to JDK 25's AOT cache; null when the run has no AOT axis (the fat jar,
 * as always)
 */
public record Arm(Tuning tuning, Jdk jdk, boolean labelled, Work work, boolean workLabelled, Aot aot) {

	/** The name results and rows give this arm: the tuning's name and the JDK's label, joined by a dash. */
	public String name() {
		List<String> parts = new ArrayList<>();
		if (!this.tuning.name().equals(Tuning.DEFAULT)) {
			parts.add(this.tuning.name());
		}
		if (this.labelled) {
			parts.add(this.jdk.label());
		}
		if (this.workLabelled) {
			parts.add(this.work.label());
		}
		if (this.aot != null) {
			parts.add(this.aot.label());
		}
		return parts.isEmpty() ? Tuning.DEFAULT : String.join("-", parts);
	}

	/** How a variant run in this arm is named in results: the module alone for {@code default} on the run's only JDK. */
	public String label(String variant) {
		String name = name();
		return name.equals(Tuning.DEFAULT) ? variant : variant + "." + name;
	}

	/**
	 * A row's label without its work: {@code app-webflux.work40} → {@code app-webflux}, {@code app-webflux.tuned-work40}
	 * → {@code app-webflux.tuned}; a label without one is returned as it is.
	 */
	public static String withoutWork(String label) {
		return label.replaceFirst("\\.work\\d+$", "").replaceFirst("-work\\d+(?=-aot-|$)", "").replaceFirst("\\.work\\d+-", ".");
	}

	/**
	 * The A/A twin of a row's label: the same variant entered a second time under a second name, {@code app-webflux.aa}
	 * ({@code app-webflux.tuned-aa} under a tuning); {@link Variant#modelOf} calls it the A/A twin.
	 */
	public static String twin(String label) {
		return label.contains(".") ? label + "-aa" : label + ".aa";
	}

	/** The variant's JVM flags: the tuning's, those it gives only to JDKs from a feature version on included. */
	public List<String> jvmFlags(String variant) {
		return this.tuning.jvmFlags(variant, this.jdk.feature());
	}

}
