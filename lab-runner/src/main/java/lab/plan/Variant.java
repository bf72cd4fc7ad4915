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

	public static String modelOf(String name) {
		return ALL.stream().filter(v -> v.name.equals(name)).map(Variant::model).findFirst().orElse("");
	}

}
