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

}
