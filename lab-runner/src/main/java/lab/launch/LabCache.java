package lab.launch;

import java.nio.file.Path;

/** Where the lab keeps what outlives a run and a clone (AOT caches, the injector's class archive). */
public final class LabCache {

	private LabCache() {
	}

	/** {@code $LAB_CACHE_DIR}, else {@code $XDG_CACHE_HOME/loom-lab}, else {@code ~/.cache/loom-lab}. */
	public static Path root() {
		String lab = System.getenv("LAB_CACHE_DIR");
		if (lab != null && !lab.isBlank()) {
			return Path.of(lab);
		}
		String xdg = System.getenv("XDG_CACHE_HOME");
		return ((xdg != null && !xdg.isBlank()) ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache")).resolve("loom-lab");
	}

}
