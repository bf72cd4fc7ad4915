package lab.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * One way a variant runs in a run that compares several side by side: a tuning (with its observe mode) on a JDK.
 * Its variant's rows are labelled {@code <module>.<tuning>-<jdk>}: the module alone under {@code default} on the
 * run's only JDK, {@code app-webflux.jdk21} or {@code app-webflux.tuned-jdk25} when the run has several JDKs.
 *
 * @param tuning the tuning and observe mode
 * @param jdk the JDK the service runs on
 * @param labelled whether the run compares JDKs, so rows name theirs
 */
public record Arm(Tuning tuning, Jdk jdk, boolean labelled) {

	/** The name results and rows give this arm: the tuning's name and the JDK's label, joined by a dash. */
	public String name() {
		List<String> parts = new ArrayList<>();
		if (!this.tuning.name().equals(Tuning.DEFAULT)) {
			parts.add(this.tuning.name());
		}
		if (this.labelled) {
			parts.add(this.jdk.label());
		}
		return parts.isEmpty() ? Tuning.DEFAULT : String.join("-", parts);
	}

	/** How a variant run in this arm is named in results: the module alone for {@code default} on the run's only JDK. */
	public String label(String variant) {
		String name = name();
		return name.equals(Tuning.DEFAULT) ? variant : variant + "." + name;
	}

	/** The variant's JVM flags: the tuning's, those it gives only to JDKs from a feature version on included. */
	public List<String> jvmFlags(String variant) {
		return this.tuning.jvmFlags(variant, this.jdk.feature());
	}

}
