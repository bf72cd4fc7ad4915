package lab.plan;

import java.util.Arrays;
import java.util.List;

/**
 * How a service starts with respect to JDK 25's AOT cache (JEP 483, 514, 515: classes loaded and linked, and method
 * profiles, from a training run). Every mode launches the variant from its extracted jar (Spring Boot's
 * {@code -Djarmode=tools extract}: the cache holds only classes of the class path, not of nested jars), so the modes
 * differ by the cache alone.
 */
public enum Aot {

	/** No cache: the extracted jar alone. */
	NONE("none", "no AOT cache (extracted jar)"),

	/** A cache trained under the lab's own load: the service run at the scenario's level for the training's length. */
	TRAINED("trained", "AOT cache trained under the lab's load"),

	/** Spring Boot's documented training: the application exits at context refresh, before any request. */
	REFRESH("refresh", "AOT cache from Spring Boot's training (exits at context refresh)");

	private final String id;

	private final String description;

	Aot(String id, String description) {
		this.id = id;
		this.description = description;
	}

	public String id() {
		return this.id;
	}

	public String description() {
		return this.description;
	}

	/** The name rows take: {@code aot-none}, {@code aot-trained}, {@code aot-refresh}. */
	public String label() {
		return "aot-" + this.id;
	}

	public static List<String> ids() {
		return Arrays.stream(values()).map(Aot::id).toList();
	}

	/** @throws PlanException naming the valid modes */
	public static Aot of(String id) {
		return Arrays.stream(values()).filter(mode -> mode.id.equals(id)).findFirst()
			.orElseThrow(() -> new PlanException("unknown AOT cache mode '" + id + "': valid modes are " + String.join(", ", ids())));
	}

}
