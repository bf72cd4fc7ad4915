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

	/**
	 * The arms of a service of the user's own this run measures ({@code --service}): variants of this run only, named
	 * {@code <service>-<arm>}, with no port of their own. Empty unless {@link #measureOwn} set them.
	 */
	private static volatile List<Variant> own = List.of();

	/** This process measures these arms of a service of the user's own besides (instead of) the lab's variants. */
	public static void measureOwn(List<Variant> arms) {
		own = List.copyOf(arms);
	}

	/** Whether {@code name} is an arm of a service of the user's own, not one of the lab's variants. */
	public static boolean isOwn(String name) {
		return own.stream().anyMatch(v -> v.name.equals(name));
	}

	/** The lab's variants and the arms of a service of the user's own this run measures, if any. */
	public static List<Variant> known() {
		List<Variant> all = new java.util.ArrayList<>(ALL);
		all.addAll(own);
		return all;
	}

	public static List<String> names() {
		return known().stream().map(Variant::name).toList();
	}

	/**
	 * The model of a variant, by module name or by label ({@code <module>.<tuning>}, {@code <module>.jdk21},
	 * {@code <module>.<tuning>-jdk25}, {@code <module>.tuned-work40}, {@code <module>.aot-trained}: its tuning, JDK, work
	 * and AOT cache named, in the order {@link Arm#name()} joins them).
	 */
	public static String modelOf(String label) {
		String module = moduleOf(label);
		String model = known().stream().filter(v -> v.name.equals(module)).map(Variant::model).findFirst().orElse("");
		if (module.equals(label)) {
			return model;
		}
		String rest = label.substring(module.length() + 1);
		List<String> notes = new java.util.ArrayList<>();
		if (rest.equals("aa") || rest.endsWith("-aa")) {
			notes.add("A/A twin (the same variant entered twice)");
			rest = rest.substring(0, Math.max(0, rest.length() - 3));
		}
		java.util.regex.Matcher aot = java.util.regex.Pattern.compile("(?:^|-)aot-([a-z]+)$").matcher(rest);
		if (aot.find()) {
			notes.add(0, Aot.ids().contains(aot.group(1)) ? Aot.of(aot.group(1)).description() : "AOT cache " + aot.group(1));
			rest = rest.substring(0, aot.start());
		}
		java.util.regex.Matcher work = java.util.regex.Pattern.compile("(?:^|-)work(\\d+)$").matcher(rest);
		if (work.find()) {
			notes.add(0, "work " + work.group(1));
			rest = rest.substring(0, work.start());
		}
		java.util.regex.Matcher jdk = java.util.regex.Pattern.compile("(?:^|-)jdk(\\d+)$").matcher(rest);
		if (jdk.find()) {
			notes.add(0, "JDK " + jdk.group(1));
			rest = rest.substring(0, jdk.start());
		}
		if (!rest.isEmpty()) {
			notes.add(0, "tuning " + rest);
		}
		return model + (notes.isEmpty() ? "" : "; " + String.join("; ", notes));
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
