package lab.deploy;

import java.io.IOException;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/** Files of this repository, read from the reactor root. */
final class Repo {

	static final ObjectMapper yaml = new ObjectMapper(new YAMLFactory());

	static final ObjectMapper json = new ObjectMapper();

	private Repo() {
	}

	static Path root() {
		return Path.of(System.getProperty("lab.root", "..")).toAbsolutePath().normalize();
	}

	static JsonNode yaml(String file) throws IOException {
		return yaml.readTree(root().resolve(file).toFile());
	}

	/** A Compose file as Compose reads it: each {@code ${NAME:-default}} replaced by its default, then parsed. */
	static JsonNode compose(String file) throws IOException {
		return compose(file, java.util.Map.of());
	}

	/** A Compose file as Compose reads it with {@code env} set: each {@code ${NAME:-default}} its value there, else its default. */
	static JsonNode compose(String file, java.util.Map<String, String> env) throws IOException {
		String text = java.nio.file.Files.readString(root().resolve(file));
		return yaml.readTree(DEFAULTED.matcher(text)
			.replaceAll(match -> java.util.regex.Matcher.quoteReplacement(env.getOrDefault(match.group(1), match.group(2)))));
	}

	private static final java.util.regex.Pattern DEFAULTED = java.util.regex.Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*):-([^}]*)}");

}
