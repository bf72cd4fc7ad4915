package lab.common;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.yaml.snakeyaml.Yaml;

import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The Spring properties the lab's {@code tuned} tuning gives a variant (its {@code all} section, then the
 * variant's own), read from the tuning file the runner applies, so a variant's contract is also tested under
 * exactly what the lab runs it with: a setting added to {@code tuned.yml} is under test without being copied here.
 */
public final class TunedProperties {

	/** The tuning file, from a module's directory (where Maven runs its tests). */
	static final Path FILE = Path.of("..", "lab-runner", "src", "main", "resources", "tunings", "tuned.yml");

	private TunedProperties() {
	}

	/** Registers {@code variant}'s tuned properties with a test's Spring environment. */
	public static void register(DynamicPropertyRegistry registry, String variant) {
		of(variant).forEach((name, value) -> registry.add(name, () -> value));
	}

	/** {@code variant}'s tuned properties, in the file's order; the variant must be named in the file. */
	@SuppressWarnings("unchecked")
	public static Map<String, String> of(String variant) {
		Map<String, Object> tuning;
		try (Reader reader = Files.newBufferedReader(FILE)) {
			tuning = new Yaml().load(reader);
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot read " + FILE.toAbsolutePath().normalize() + " (tests run from a module's directory)", ex);
		}
		Map<String, Object> variants = (Map<String, Object>) tuning.get("variants");
		if (variants == null || !variants.containsKey(variant)) {
			throw new IllegalStateException(FILE + " has no variant " + variant);
		}
		Map<String, String> properties = new LinkedHashMap<>();
		for (Object section : new Object[] { tuning.get("all"), variants.get(variant) }) {
			if (section instanceof Map<?, ?> map && map.get("properties") instanceof Map<?, ?> values) {
				values.forEach((name, value) -> properties.put(name.toString(), value.toString()));
			}
		}
		return properties;
	}

}
