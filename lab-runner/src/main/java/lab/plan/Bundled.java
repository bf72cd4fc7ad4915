package lab.plan;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The YAML files bundled in a folder of the runner's class path ({@code scenarios/}, {@code tunings/}), found by
 * listing the folder, so a file added there is a scenario or tuning without a list to keep in step. Works from the
 * build's classes directory and from inside the runner's jar.
 */
final class Bundled {

	private Bundled() {
	}

	/** The names (file names without {@code .yml}) in {@code folder}, sorted. */
	static List<String> names(String folder) {
		URL url = Bundled.class.getResource("/" + folder);
		if (url == null) {
			return List.of();
		}
		try {
			URI uri = url.toURI();
			if (uri.getScheme().equals("file")) {
				return list(Path.of(uri));
			}
			// Inside a jar: the folder through a zip file system (opened here unless something else opened it).
			FileSystem zip;
			boolean opened = false;
			try {
				zip = FileSystems.newFileSystem(uri, Map.of());
				opened = true;
			}
			catch (FileSystemAlreadyExistsException ex) {
				zip = FileSystems.getFileSystem(uri);
			}
			try {
				return list(zip.provider().getPath(uri));
			}
			finally {
				if (opened) {
					zip.close();
				}
			}
		}
		catch (IOException | URISyntaxException | RuntimeException ex) {
			throw new IllegalStateException("cannot list the bundled " + folder + " at " + url + ": " + ex.getMessage(), ex);
		}
	}

	private static List<String> list(Path folder) throws IOException {
		try (Stream<Path> files = Files.list(folder)) {
			return files.map(file -> file.getFileName().toString())
				.filter(name -> name.endsWith(".yml"))
				.map(name -> name.substring(0, name.length() - ".yml".length()))
				.sorted()
				.toList();
		}
	}

}
