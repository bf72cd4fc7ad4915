package lab.plan;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import tools.jackson.databind.DatabindException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * A tuning file (YAML, {@code src/main/resources/tunings}): JVM flags and Spring properties for every variant
 * ({@code all}) and per variant ({@code variants}), added to the profile's flags and the lab's fairness settings.
 * {@code default} adds nothing: Spring Boot's defaults. A variant run under another tuning is labelled
 * {@code <variant>.<tuning>} in the results and the report.
 *
 * @param name the tuning's name, used in labels and directories
 * @param description one line for the report
 * @param all what every variant gets
 * @param variants what one variant gets on top, by module name
 */
public record Tuning(String name, String description, Settings all, Map<String, Settings> variants) {

	public static final String DEFAULT = "default";

	private static final YAMLMapper yaml = YAMLMapper.builder().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

	/**
	 * @param jvm JVM flags, after the profile's
	 * @param jvmFromJdk JVM flags only a JDK of at least this feature version takes (a JDK 21 refuses to start on a
	 * flag it does not know), by that version: {@code 25: [-XX:+UseCompactObjectHeaders]}
	 * @param properties Spring properties, passed as {@code --name=value}
	 */
	public record Settings(List<String> jvm, Map<Integer, List<String>> jvmFromJdk, Map<String, String> properties) {

		public Settings {
			jvm = (jvm != null) ? List.copyOf(jvm) : List.of();
			jvmFromJdk = (jvmFromJdk != null) ? new TreeMap<>(jvmFromJdk) : new TreeMap<>();
			properties = (properties != null) ? new LinkedHashMap<>(properties) : new LinkedHashMap<>();
		}

		static final Settings NONE = new Settings(null, null, null);

		/** The JVM flags for a JDK of this feature version: everyone's, then those from its version down. */
		List<String> jvm(int feature) {
			List<String> flags = new ArrayList<>(this.jvm);
			this.jvmFromJdk.forEach((from, more) -> {
				if (feature >= from) {
					flags.addAll(more);
				}
			});
			return flags;
		}

		/** Every flag, whatever the JDK: what a file is checked for. */
		List<String> allJvm() {
			List<String> flags = new ArrayList<>(this.jvm);
			this.jvmFromJdk.values().forEach(flags::addAll);
			return flags;
		}

	}

	public Tuning {
		description = (description != null) ? description : "";
		all = (all != null) ? all : Settings.NONE;
		variants = (variants != null) ? new LinkedHashMap<>(variants) : new LinkedHashMap<>();
	}

	/** The JVM flags of a variant on a JDK of this feature version: everyone's, then its own. */
	public List<String> jvmFlags(String variant, int feature) {
		List<String> flags = new ArrayList<>(this.all.jvm(feature));
		flags.addAll(this.variants.getOrDefault(variant, Settings.NONE).jvm(feature));
		return flags;
	}

	/** The Spring properties of a variant, its own overriding everyone's. */
	public Map<String, String> properties(String variant) {
		Map<String, String> properties = new LinkedHashMap<>(this.all.properties());
		properties.putAll(this.variants.getOrDefault(variant, Settings.NONE).properties());
		return properties;
	}

	/** The properties as the service's command-line arguments. */
	public List<String> arguments(String variant) {
		return properties(variant).entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toList();
	}

	/**
	 * This tuning observed as {@code mode} says: itself for {@code full}; for {@code lean}, named {@code lean} (or
	 * {@code <name>-lean}) with the mode's properties added for every variant.
	 */
	public Tuning observed(Observe mode) {
		if (mode == Observe.FULL) {
			return this;
		}
		Map<String, String> properties = new LinkedHashMap<>(this.all.properties());
		properties.putAll(mode.properties());
		String name = this.name.equals(DEFAULT) ? mode.id() : this.name + "-" + mode.id();
		String description = this.name.equals(DEFAULT) ? mode.description() : this.description + "; " + mode.description();
		return new Tuning(name, description, new Settings(this.all.jvm(), this.all.jvmFromJdk(), properties), this.variants);
	}

	/** How a variant run under this tuning is named in results: the module alone for {@code default}. */
	public String label(String variant) {
		return this.name.equals(DEFAULT) ? variant : variant + "." + this.name;
	}

	/** A bundled tuning by name, or a file path. */
	public static Tuning load(String nameOrPath) {
		Path file = Path.of(nameOrPath);
		if (nameOrPath.endsWith(".yml") || nameOrPath.endsWith(".yaml") || nameOrPath.contains("/")) {
			if (!Files.isRegularFile(file)) {
				throw new PlanException("tuning file " + file + " not found: use one of " + String.join(", ", bundledNames()) + ", or a YAML file");
			}
			try (InputStream in = Files.newInputStream(file)) {
				return parse(in, file.toString());
			}
			catch (IOException ex) {
				throw new PlanException("cannot read tuning file " + file + ": " + ex.getMessage());
			}
		}
		InputStream bundled = Tuning.class.getResourceAsStream("/tunings/" + nameOrPath + ".yml");
		if (bundled == null) {
			throw new PlanException("unknown tuning '" + nameOrPath + "': use one of " + String.join(", ", bundledNames()) + ", or the path of a tuning file");
		}
		return parse(bundled, nameOrPath);
	}

	/** Every tuning in the runner's {@code tunings/} folder, by name. */
	public static List<String> bundledNames() {
		return Bundled.names("tunings");
	}

	static Tuning parse(InputStream in, String source) {
		Tuning tuning;
		try {
			tuning = yaml.readValue(in.readAllBytes(), Tuning.class);
		}
		catch (IOException ex) {
			throw new PlanException("cannot read " + source + ": " + ex.getMessage());
		}
		catch (UnrecognizedPropertyException ex) {
			throw new PlanException(source + ": unknown field '" + ex.getPropertyName() + "'; a tuning has name, description, all and "
					+ "variants, and each of those jvm, jvmFromJdk and properties");
		}
		catch (DatabindException ex) {
			throw new PlanException(source + ": " + ex.getOriginalMessage().lines().findFirst().orElse("not a valid tuning file"));
		}
		if (tuning == null) {
			throw new PlanException(source + ": the tuning file is empty");
		}
		List<String> problems = new ArrayList<>();
		if (tuning.name() == null || !tuning.name().matches("[a-z0-9][a-z0-9-]*")) {
			problems.add("name must be lower-case letters, digits and dashes, got '" + tuning.name() + "'");
		}
		for (String variant : tuning.variants().keySet()) {
			if (!Variant.names().contains(variant)) {
				problems.add("unknown variant '" + variant + "': valid variants are " + String.join(", ", Variant.names()));
			}
		}
		List<Settings> all = new ArrayList<>(tuning.variants().values());
		all.add(tuning.all());
		for (Settings settings : all) {
			settings.jvmFromJdk().keySet().stream().filter(from -> from < 21)
				.forEach(from -> problems.add("jvmFromJdk " + from + ": the services need JDK 21 or newer, so name 21 or above"));
			settings.allJvm().stream().filter(flag -> !flag.startsWith("-")).forEach(flag -> problems.add("JVM flag '" + flag + "' must start with '-'"));
			settings.properties().keySet().stream().filter(key -> key.startsWith("-") || key.contains("="))
				.forEach(key -> problems.add("property '" + key + "' must be a Spring property name, e.g. server.max-http-request-header-size"));
		}
		if (!problems.isEmpty()) {
			throw new PlanException(source + ": " + String.join("; ", problems));
		}
		return tuning;
	}

}
