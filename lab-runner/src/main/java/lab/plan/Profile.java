package lab.plan;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * How the service under test sees the machine. {@code t2-micro}: pinned to one core with the JVM told it has one
 * CPU and 1 GiB, so heap size and GC are chosen by ergonomics exactly as on a real t2.micro (about 256 MiB heap,
 * Serial GC); the downstream and the injector get the other cores. {@code unconstrained}: no pinning, no caps.
 */
public enum Profile {

	T2_MICRO("t2-micro", List.of("-XX:ActiveProcessorCount=1", "-XX:MaxRAM=1g"), true),
	UNCONSTRAINED("unconstrained", List.of(), false);

	private final String id;

	private final List<String> jvmFlags;

	private final boolean pinned;

	Profile(String id, List<String> jvmFlags, boolean pinned) {
		this.id = id;
		this.jvmFlags = jvmFlags;
		this.pinned = pinned;
	}

	public static Profile parse(String id) {
		for (Profile profile : values()) {
			if (profile.id.equals(id.trim())) {
				return profile;
			}
		}
		throw new PlanException("unknown profile '" + id + "': valid profiles are "
				+ Arrays.stream(values()).map(Profile::id).collect(Collectors.joining(", ")));
	}

	public String id() {
		return this.id;
	}

	public List<String> jvmFlags() {
		return this.jvmFlags;
	}

	public boolean pinned() {
		return this.pinned;
	}

}
