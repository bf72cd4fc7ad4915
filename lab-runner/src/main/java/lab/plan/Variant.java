package lab.plan;

import java.util.List;

/**
 * The one list of variants. Compose, Terraform and the report are checked against it in tests.
 *
 * @param name module name of the variant
 * @param model one line saying what concurrency model it is
 */
public record Variant(String name, String model) {

	public static final String DOWNSTREAM = "downstream-delay-service";

	public static final List<Variant> ALL = List.of(
			new Variant("app-tomcat-loom", "Spring MVC on Tomcat, a virtual thread per request, blocking RestClient"),
			new Variant("app-webflux", "WebFlux on Reactor Netty, non-blocking WebClient"),
			new Variant("app-webflux-loom", "WebFlux, blocking RestClient on one shared virtual-thread executor"),
			new Variant("app-tomcat-platform", "Spring MVC on Tomcat, bounded pool of 200 platform threads"));

	public static List<String> names() {
		return ALL.stream().map(Variant::name).toList();
	}

	/** The model of a variant, by module name or by label ({@code <module>.<tuning>}, its tuning named). */
	public static String modelOf(String label) {
		String module = moduleOf(label);
		String model = ALL.stream().filter(v -> v.name.equals(module)).map(Variant::model).findFirst().orElse("");
		return module.equals(label) ? model : model + "; tuning " + label.substring(module.length() + 1);
	}

	/** The module of a label: {@code app-tomcat-loom.tuned} → {@code app-tomcat-loom}. */
	public static String moduleOf(String label) {
		int dot = label.indexOf('.');
		return (dot < 0) ? label : label.substring(0, dot);
	}

}
