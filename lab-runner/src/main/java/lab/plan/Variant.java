package lab.plan;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;

import tools.jackson.core.type.TypeReference;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * A variant of the lab, from the one list of them ({@code src/main/resources/variants.yml}). The module's
 * application.yml, Compose, Prometheus and Terraform are checked against it in tests.
 *
 * @param name module name of the variant
 * @param model one line saying what concurrency model it is
 * @param port the port it listens on by default
 */
public record Variant(String name, String model, int port) {

	public static final String DOWNSTREAM = "downstream-delay-service";

	public static final List<Variant> ALL = load();

	private static List<Variant> load() {
		try (InputStream in = Variant.class.getResourceAsStream("/variants.yml")) {
			if (in == null) {
				throw new IllegalStateException("variants.yml is missing from the runner's class path");
			}
			return List.copyOf(YAMLMapper.builder().build().readValue(in, new TypeReference<List<Variant>>() { }));
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot read variants.yml: " + ex.getMessage(), ex);
		}
	}

	/**
	 * Where its management endpoints (health, metrics) answer in the Compose stack: its port + 1000. Apart from the
	 * requests, so a scrape does not wait in the server's queue behind them (200 platform threads busy at 1,000 users
	 * left every scrape unanswered); the runner gives the services it starts a port of their own the same way.
	 */
	public int managementPort() {
		return this.port + 1000;
	}

	/** The lab's variants' names, in variants.yml's order ({@link Variants} adds a run's own arms). */
	public static List<String> names() {
		return ALL.stream().map(Variant::name).toList();
	}

	/** The module of a label: {@code app-tomcat-loom.tuned} → {@code app-tomcat-loom}. */
	public static String moduleOf(String label) {
		int dot = label.indexOf('.');
		return (dot < 0) ? label : label.substring(0, dot);
	}

	/** The variable part of this variant's Compose environment names: app-tomcat-loom → TOMCAT_LOOM. */
	public String envName() {
		return name().replaceFirst("^app-", "").replace('-', '_').toUpperCase(java.util.Locale.ROOT);
	}

}
