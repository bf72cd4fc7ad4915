package lab.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Reads what the simulation wrote into a level's directory. */
public final class LoadFiles {

	public static final String WINDOW = "load-window.csv";

	public static final String LATENCY = "latency.hlog";

	public static final String REQUESTS = "requests.csv";

	private LoadFiles() {
	}

	public static LoadWindow window(Path dir) throws IOException {
		Path file = dir.resolve(WINDOW);
		if (!Files.isRegularFile(file)) {
			return null;
		}
		List<String> lines = Files.readAllLines(file);
		String[] fields = lines.get(1).split(",");
		return new LoadWindow(Long.parseLong(fields[0]), Long.parseLong(fields[1]), Long.parseLong(fields[2]));
	}

}
