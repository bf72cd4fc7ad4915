package lab;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Iterator;

import lab.plan.Scenario;
import lab.plan.Variant;

/** What the commands share, below {@link Main} that registers them: the lab's root, where results go by default, the usage exit code, the completion lists. */
final class Commands {

	private Commands() {
	}

	/** Bad input: one line naming the problem and the fix, and this exit code. */
	static final int USAGE = 2;

	/** The lab's checkout: {@code -Dlab.root} as ./lab sets it, else the working directory. */
	static Path root() {
		return Path.of(System.getProperty("lab.root", ".")).toAbsolutePath().normalize();
	}

	/** {@code results/<yyyyMMdd-HHmmss>-<what>} under the lab's root: where a run or a comparison goes by default. */
	static Path timestamped(String what) {
		return root().resolve("results").resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + "-" + what);
	}

	/** The bundled scenarios, as the runner finds them, for {@code --scenario}'s help. */
	static final class BundledScenarios implements Iterable<String> {

		@Override
		public Iterator<String> iterator() {
			return Scenario.bundledNames().iterator();
		}

	}

	/** The variants, from their one list, for {@code --variants}' help. */
	static final class VariantNames implements Iterable<String> {

		@Override
		public Iterator<String> iterator() {
			return Variant.names().iterator();
		}

	}

}
